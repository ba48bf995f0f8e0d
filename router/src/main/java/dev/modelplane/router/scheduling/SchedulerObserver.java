package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;

/** Receives timings and outcomes of scheduling cycles (for metrics). Implementations must be cheap and thread-safe. */
public interface SchedulerObserver {
  SchedulerObserver NONE = new SchedulerObserver() {
  };

  /** A plugin ran at an extension point ({@code Filter}, {@code Scorer}, {@code Picker}, …) for {@code nanos}. */
  default void pluginDuration(String extensionPoint, Plugin plugin, long nanos) {
  }

  /** A filter let {@code kept} of {@code before} candidates through. */
  default void filtered(Plugin filter, int before, int kept) {
  }

  /** A whole scheduling cycle ended, successfully or not. */
  default void cycle(long nanos, boolean success) {
  }
}
