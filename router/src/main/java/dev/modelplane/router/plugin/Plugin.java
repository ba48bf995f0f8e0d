package dev.modelplane.router.plugin;

/** A named, typed plugin of the scheduling framework. The type is GIE's registered name, e.g. {@code queue-scorer}. */
public interface Plugin {
  /** The registered plugin type. */
  String type();

  /** The instance name from the config ({@code name}, defaulting to the type). */
  String name();
}
