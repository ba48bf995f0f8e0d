package dev.modelplane.operator.ome.modelagent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The directories the agent may write models to (and read {@code local://} models from): a model's
 * {@code storage.path} must lie strictly inside one of them. Each root is a directory as model specs name it and,
 * optionally, where this process sees it ({@code /raid/models=/host/raid/models}), for an agent whose mount differs from
 * the path serving pods use; by default both are the same.
 *
 * @param roots the allowed roots, in the order given
 */
public record ModelRoots(List<Root> roots) {
  /** The root used when none is configured. */
  public static final String DEFAULT = "/raid/models";

  /**
   * One allowed directory.
   *
   * @param specPath the directory as model specs name it (absolute, normalized)
   * @param localPath where this process reads and writes it
   */
  public record Root(Path specPath, Path localPath) {
    public Root {
      Objects.requireNonNull(specPath);
      Objects.requireNonNull(localPath);
    }
  }

  /** Where a checked path is: as the spec names it, and as this process reaches it. */
  public record Resolved(Path specPath, Path localPath) {
  }

  public ModelRoots {
    roots = List.copyOf(roots);
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("at least one models root is needed");
    }
  }

  /**
   * Roots from flag values: {@code DIR} or {@code SPEC_DIR=LOCAL_DIR}; both absolute, without {@code ..}.
   *
   * @throws IllegalArgumentException naming the bad entry
   */
  public static ModelRoots parse(List<String> entries) {
    List<Root> roots = new ArrayList<>();
    for (String entry : entries) {
      String trimmed = entry.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      int eq = trimmed.indexOf('=');
      String spec = eq < 0 ? trimmed : trimmed.substring(0, eq);
      String local = eq < 0 ? trimmed : trimmed.substring(eq + 1);
      roots.add(new Root(rootPath(spec, entry), rootPath(local, entry)));
    }
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("--models-root needs at least one directory");
    }
    return new ModelRoots(roots);
  }

  /** The roots of {@link #DEFAULT}. */
  public static ModelRoots defaults() {
    return parse(List.of(DEFAULT));
  }

  private static Path rootPath(String value, String entry) {
    if (!value.startsWith("/") || hasDotDot(value) || value.chars().anyMatch(c -> c < 0x20)) {
      throw new IllegalArgumentException("--models-root '" + entry + "' must be an absolute directory without '..' "
          + "(or SPEC_DIR=LOCAL_DIR)");
    }
    return Path.of(value).normalize();
  }

  /**
   * Checks a directory a model names ({@code field} is its path in the spec, for the message).
   *
   * @return where it is, or why it is refused (reason {@code PathNotAllowed})
   */
  public Check check(String path, String field) {
    if (path == null || path.isBlank()) {
      return new Check.Refused("PathNotAllowed", field + " is empty");
    }
    if (path.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      return new Check.Refused("PathNotAllowed", field + " contains a control character");
    }
    if (!path.startsWith("/")) {
      return new Check.Refused("PathNotAllowed", field + " must be an absolute directory, got '" + path + "'");
    }
    if (hasDotDot(path)) {
      return new Check.Refused("PathNotAllowed", field + " '" + path + "' contains '..'; refused");
    }
    Path normalized = Path.of(path).normalize();
    for (Root root : roots) {
      if (normalized.equals(root.specPath())) {
        return new Check.Refused("PathNotAllowed", field + " '" + path + "' is the models root " + root.specPath()
            + " itself; a model needs a directory of its own inside it");
      }
      if (normalized.startsWith(root.specPath())) {
        Path local = root.localPath().resolve(root.specPath().relativize(normalized)).normalize();
        return new Check.Allowed(new Resolved(normalized, local));
      }
    }
    return new Check.Refused("PathNotAllowed", field + " '" + path + "' is not inside an allowed models root ("
        + String.join(", ", roots.stream().map(r -> r.specPath().toString()).toList()) + ")");
  }

  /** The directory rules over these roots, as model specs name them. */
  public dev.modelplane.operator.ome.storage.ModelPaths paths() {
    return new dev.modelplane.operator.ome.storage.ModelPaths(roots.stream().map(r -> r.specPath().toString())
        .toList());
  }

  private static boolean hasDotDot(String path) {
    for (String segment : path.split("/", -1)) {
      if (segment.equals("..")) {
        return true;
      }
    }
    return false;
  }

  /** The outcome of {@link #check}. */
  public sealed interface Check {
    /** The path is inside a root. */
    record Allowed(Resolved path) implements Check {
    }

    /** The path is refused, with the reason and a message naming the field. */
    record Refused(String reason, String message) implements Check {
    }
  }
}
