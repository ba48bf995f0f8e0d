package dev.modelplane.router.plugin;

/** Base for plugins: the registered type and the configured instance name. */
public abstract class NamedPlugin implements Plugin {
  private final String type;
  private final String name;

  protected NamedPlugin(String type, String name) {
    this.type = type;
    this.name = name == null || name.isEmpty() ? type : name;
  }

  @Override
  public final String type() {
    return type;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public String toString() {
    return type + "/" + name;
  }
}
