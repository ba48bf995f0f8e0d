package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where one container's paths are on this machine: each volume mount's path is a local directory (its volume's, with
 * the sub-path), and the termination message path is a file of the container's. Paths are rewritten in the
 * container's arguments and environment values: a word equal to a mapped path or under it, or the value of a
 * {@code --flag=value} word.
 *
 * @param mounts mount path → local path, longest mount path first
 * @param terminationPath the container's termination message path
 * @param terminationFile the local file for it
 */
record LocalMounts(List<Mount> mounts, String terminationPath, Path terminationFile) {
  /** The termination message path of a container that names none. */
  static final String DEFAULT_TERMINATION_PATH = "/dev/termination-log";

  /** One mount: a path in the container and the local path it stands for. */
  record Mount(String mountPath, Path local) {
  }

  LocalMounts {
    mounts = mounts.stream().sorted(Comparator.comparingInt((Mount m) -> m.mountPath().length()).reversed())
        .toList();
  }

  /**
   * The mounts of {@code container} given its pod's volume directories.
   *
   * @param volumes volume name → local directory
   * @param env the container's environment (for {@code subPathExpr})
   * @param terminationFile where the container's termination message goes
   * @throws IllegalArgumentException naming a mount whose volume is not in {@code volumes}
   */
  static LocalMounts of(Container container, Map<String, Path> volumes, Map<String, String> env,
      Path terminationFile) {
    List<Mount> mounts = new ArrayList<>();
    for (VolumeMount m : container.getVolumeMounts() == null ? List.<VolumeMount>of() : container.getVolumeMounts()) {
      Path dir = volumes.get(m.getName());
      if (dir == null) {
        throw new IllegalArgumentException("volume mount \"" + m.getName() + "\" names no volume of the pod");
      }
      String sub = m.getSubPathExpr() != null && !m.getSubPathExpr().isEmpty()
          ? ContainerArgv.expandKubernetes(m.getSubPathExpr(), env) : m.getSubPath();
      if (sub != null && !sub.isEmpty()) {
        if (sub.startsWith("/") || Path.of(sub).normalize().startsWith("..")) {
          throw new IllegalArgumentException("volume mount \"" + m.getName() + "\": subPath \"" + sub
              + "\" must be a relative path inside the volume");
        }
        dir = dir.resolve(sub);
      }
      mounts.add(new Mount(trimSlash(m.getMountPath()), dir));
    }
    String path = container.getTerminationMessagePath() == null || container.getTerminationMessagePath().isEmpty()
        ? DEFAULT_TERMINATION_PATH : container.getTerminationMessagePath();
    return new LocalMounts(mounts, path, terminationFile);
  }

  /** The local path of {@code path} in the container, if a mount (or the termination message path) covers it. */
  Optional<Path> map(String path) {
    if (path.equals(terminationPath)) {
      return Optional.of(terminationFile);
    }
    for (Mount m : mounts) {
      if (path.equals(m.mountPath())) {
        return Optional.of(m.local());
      }
      String prefix = m.mountPath().equals("/") ? "/" : m.mountPath() + "/";
      if (path.startsWith(prefix)) {
        return Optional.of(m.local().resolve(path.substring(prefix.length())));
      }
    }
    return Optional.empty();
  }

  /** {@code word} with a container path (whole, or as the value of {@code --flag=value}) made local. */
  String rewrite(String word) {
    Optional<Path> whole = word.startsWith("/") ? map(word) : Optional.empty();
    if (whole.isPresent()) {
      return whole.get().toString();
    }
    int eq = word.indexOf('=');
    if (word.startsWith("-") && eq > 1 && eq + 1 < word.length() && word.charAt(eq + 1) == '/') {
      return map(word.substring(eq + 1)).map(p -> word.substring(0, eq + 1) + p).orElse(word);
    }
    return word;
  }

  private static String trimSlash(String path) {
    String p = path == null ? "" : path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }
}
