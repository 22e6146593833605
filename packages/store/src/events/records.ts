// The events domain's records, in a file of their own: the events repository stores them and
// the webhooks repository queues their deliveries, and neither should import the other.

export interface NewEvent {
  kind: string;
  projectId: string | null;
  accountNumber: number | null;
  /** Who may see it when its project cannot say (see EventsTable.audience). */
  audience?: number[] | null;
  data: Record<string, unknown>;
  /**
   * It tells of a change that was itself committed without the flush to disk (relaxed.ts: a
   * draft's operation): it may be stored the same way, so that a machine crash loses it only with
   * that change, and a batch of such events costs no flush of its own.
   */
  relaxed?: boolean;
}

export interface EventRecord extends Omit<NewEvent, 'relaxed'> {
  seq: number;
  at: string;
}
