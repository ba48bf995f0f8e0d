package dev.modelplane.router.pool;

/** Told when endpoints join or leave a pool (the scraper starts and stops, the prefix index forgets). */
public interface EndpointListener {
  void added(EndpointPool pool, EndpointState endpoint);

  void removed(EndpointPool pool, EndpointState endpoint);

  /** The same endpoint (id and address) got new labels; its old state object is replaced. */
  default void replaced(EndpointPool pool, EndpointState before, EndpointState after) {
    removed(pool, before);
    added(pool, after);
  }
}
