package dev.modelplane.operator.llmkube.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds a model server's argv: typed flags in the order they are added, each skipped when {@code extraArgs}
 * already names it (as {@code --flag} or {@code --flag=value}, under any of its spellings), then {@code extraArgs}
 * verbatim. Since the user's flags come last they win on every server that keeps the last occurrence.
 */
public final class ArgList {
  private final List<String> extraArgs;
  private final List<String> args = new ArrayList<>();

  public ArgList(List<String> extraArgs) {
    this.extraArgs = extraArgs == null ? List.of() : List.copyOf(extraArgs);
  }

  /** Whether {@code extraArgs} names any of these spellings of one flag. */
  public static boolean names(List<String> extraArgs, String... spellings) {
    if (extraArgs == null) {
      return false;
    }
    for (String arg : extraArgs) {
      for (String flag : spellings) {
        if (arg.equals(flag) || arg.startsWith(flag + "=")) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The value {@code extraArgs} gives a flag ({@code --flag v} or {@code --flag=v}), the last one if repeated, or null.
   */
  public static String valueOf(List<String> extraArgs, String... spellings) {
    String value = null;
    if (extraArgs == null) {
      return null;
    }
    for (int i = 0; i < extraArgs.size(); i++) {
      String arg = extraArgs.get(i);
      for (String flag : spellings) {
        if (arg.startsWith(flag + "=")) {
          value = arg.substring(flag.length() + 1);
        } else if (arg.equals(flag) && i + 1 < extraArgs.size()) {
          value = extraArgs.get(i + 1);
        }
      }
    }
    return value;
  }

  /** Whether {@code extraArgs} names any of these spellings. */
  public boolean inExtraArgs(String... spellings) {
    return names(extraArgs, spellings);
  }

  /** Appends tokens unconditionally. */
  public ArgList always(String... tokens) {
    args.addAll(List.of(tokens));
    return this;
  }

  /** Appends {@code flag value…} unless {@code extraArgs} names the flag (first spelling is emitted). */
  public ArgList option(Flag flag, String... values) {
    if (!inExtraArgs(flag.spellings())) {
      args.add(flag.name());
      args.addAll(List.of(values));
    }
    return this;
  }

  /** Appends a value-less switch unless {@code extraArgs} names it. */
  public ArgList toggle(Flag flag) {
    return option(flag);
  }

  /** Appends {@code extraArgs} verbatim. */
  public ArgList extraArgs() {
    args.addAll(extraArgs);
    return this;
  }

  public List<String> build() {
    return List.copyOf(args);
  }

  /**
   * A command-line flag and its other spellings (short forms, older names).
   *
   * @param name the spelling the operator emits
   * @param aliases other spellings that count as naming the same flag in {@code extraArgs}
   */
  public record Flag(String name, String... aliases) {
    public String[] spellings() {
      String[] all = new String[aliases.length + 1];
      all[0] = name;
      System.arraycopy(aliases, 0, all, 1, aliases.length);
      return all;
    }
  }
}
