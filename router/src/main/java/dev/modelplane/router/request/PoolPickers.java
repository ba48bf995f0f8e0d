package dev.modelplane.router.request;

import dev.modelplane.router.pool.EndpointPool;

/**
 * Who makes the pick step for a pool's requests at the gateway: this router (in-process), or the endpoint picker the
 * pool names ({@code spec.endpointPickerRef}) — reachable, or not reachable at all (then the pool's failure mode
 * decides).
 */
public interface PoolPickers {
  /** Every pool picked in-process. */
  PoolPickers IN_PROCESS = pool -> Choice.InProcess.INSTANCE;

  /** The choice for one request of {@code pool}. */
  Choice choose(EndpointPool pool);

  /** Who picks. */
  sealed interface Choice {
    /** This router picks. */
    enum InProcess implements Choice {
      INSTANCE
    }

    /**
     * The pool's own picker, called over ext_proc.
     *
     * @param name the picker as error messages and logs name it ({@code namespace/service at ip:port})
     * @param picker the client of its ext_proc service
     * @param failOpen when it fails: a random endpoint of the pool rather than 503
     */
    record Remote(String name, ExternalPicker picker, boolean failOpen) implements Choice {
    }

    /**
     * The pool names a picker that has no address (no ready endpoint, no such Service, not a Service).
     *
     * @param message why, as the 503 of a FailClose pool says it
     * @param failOpen pick in-process instead of answering 503
     */
    record Unreachable(String message, boolean failOpen) implements Choice {
    }
  }
}
