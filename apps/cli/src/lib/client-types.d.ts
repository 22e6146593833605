// @galley/client (compiled from its sources here) names two DOM types that Node's globals lack;
// the CLI does not take the whole DOM lib for them. Remove if the client stops naming them.
type BodyInit = NonNullable<RequestInit['body']>;
type BlobPart = ConstructorParameters<typeof Blob>[0] extends Iterable<infer P> | undefined
  ? P
  : never;
