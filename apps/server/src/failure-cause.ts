/** What a storage failure's log line says of it: its code and message, not its stack. */
export function causeOf(error: unknown): { code: unknown; cause: string } {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return { code, cause: String(message) };
}
