// The events domain's records, in a file of their own: the events repository stores them and
// the webhooks repository queues their deliveries, and neither should import the other.

export interface NewEvent {
  kind: string;
  projectId: string | null;
  accountNumber: number | null;
  /** Who may see it when its project cannot say (see EventsTable.audience). */
  audience?: number[] | null;
  data: Record<string, unknown>;
}

export interface EventRecord extends NewEvent {
  seq: number;
  at: string;
}
