// A set of listeners of one kind of event: added (answering the function that removes it) and called in turn,
// one failing listener not stopping the others.
export class Listeners<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** Calls `listener` with every value emitted from now on; answers the function that stops it. */
  add(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls every listener with `value`; a listener that throws is reported to `onError`. */
  emit(value: T, onError: (error: unknown) => void): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (error) {
        onError(error);
      }
    }
  }
}
