/**
 * An error the CLI expects, told apart by its stable `code` (and its `name`, for a reader that
 * does not import the class): printed as one `galley:` line, never a stack.
 */
export class CodedError<Code extends string> extends Error {
  readonly code: Code;

  constructor(name: string, code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = name;
    this.code = code;
  }
}
