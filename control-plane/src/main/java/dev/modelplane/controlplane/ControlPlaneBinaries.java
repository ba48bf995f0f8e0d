package dev.modelplane.controlplane;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds the control-plane binaries: {@code $MODELPLANE_CONTROL_PLANE_BIN} (or the system property
 * {@code modelplane.control-plane.bin}) when set, else the cache that {@code hack/control-plane/build.sh} fills,
 * building it there when asked to and Go is installed.
 */
public final class ControlPlaneBinaries {
  static final List<String> NAMES =
      List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl", "kwok");

  private ControlPlaneBinaries() {
  }

  /** The bin directory, if every binary is already there (never builds). */
  public static Optional<Path> find() {
    String configured = System.getProperty("modelplane.control-plane.bin", System.getenv("MODELPLANE_CONTROL_PLANE_BIN"));
    if (configured != null && !configured.isBlank()) {
      Path dir = Path.of(configured);
      return complete(dir) ? Optional.of(dir) : Optional.empty();
    }
    return buildScript().flatMap(script -> runScript(script, "--check"));
  }

  /** The bin directory, building the binaries first (minutes on a cold machine) when they are missing. */
  public static Path findOrBuild() throws IOException {
    Optional<Path> found = find();
    if (found.isPresent()) {
      return found.get();
    }
    Path script = buildableScript();
    return runScript(script).orElseThrow(() -> new IOException("hack/control-plane/build.sh failed; run it by hand "
        + "to see why"));
  }

  /** The build script, when the binaries can be built here: it is reachable and Go is installed. */
  private static Path buildableScript() throws IOException {
    Path script = buildScript().orElseThrow(() -> new IOException(
        "control-plane binaries not found and hack/control-plane/build.sh is not reachable; set "
            + "MODELPLANE_CONTROL_PLANE_BIN to a directory holding " + String.join(", ", NAMES)));
    if (!goInstalled()) {
      throw new IOException(missingMessage());
    }
    return script;
  }

  /**
   * As {@link #findOrBuild()}, quietly: the build's output goes to {@code log}, its stage lines to {@code stages};
   * a failure names the log and shows its last lines.
   */
  public static Path findOrBuild(Path log, java.util.function.Consumer<String> stages) throws IOException {
    Optional<Path> found = find();
    if (found.isPresent()) {
      return found.get();
    }
    Path script = buildableScript();
    try {
      QuietBuild.Outcome outcome = QuietBuild.run(List.of(script.toString()), log, "control-plane: ", stages, 120);
      String out = outcome.stdout();
      Path dir = out.isEmpty() ? null : Path.of(out.substring(out.lastIndexOf('\n') + 1));
      if (!outcome.ok() || dir == null || !complete(dir)) {
        throw new IOException("building the control plane failed (" + (outcome.ok() ? "binaries incomplete"
            : outcome.failure()) + ")");
      }
      return dir;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while building the control plane", e);
    }
  }

  /** Whether a Go toolchain is on the PATH. */
  public static boolean goInstalled() {
    try {
      Process process = new ProcessBuilder("go", "version").redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** What to tell a user who has neither the binaries nor Go. */
  public static String missingMessage() {
    return "the real Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok) "
        + "is built from Go modules, and Go is not installed: install Go 1.26 or newer, then run "
        + "hack/control-plane/build.sh (or the test command, which runs it)";
  }

  static boolean complete(Path dir) {
    return NAMES.stream().allMatch(n -> Files.isExecutable(dir.resolve(n)))
        && Files.isRegularFile(dir.resolve("../etc/kwok-stages.yaml"));
  }

  private static Optional<Path> buildScript() {
    return repoScript("hack/control-plane/build.sh");
  }

  /** An executable script of the repository, found from the working directory (or {@code modelplane.repo.root}). */
  static Optional<Path> repoScript(String relative) {
    String root = System.getProperty("modelplane.repo.root");
    Path dir = root != null && !root.isBlank() ? Path.of(root) : Path.of("").toAbsolutePath();
    for (Path d = dir; d != null; d = d.getParent()) {
      Path script = d.resolve(relative);
      if (Files.isExecutable(script)) {
        return Optional.of(script);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> runScript(Path script, String... args) {
    try {
      var command = new java.util.ArrayList<String>();
      command.add(script.toString());
      command.addAll(List.of(args));
      Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!process.waitFor(2, TimeUnit.HOURS) || process.exitValue() != 0 || out.isEmpty()) {
        return Optional.empty();
      }
      Path dir = Path.of(out.substring(out.lastIndexOf('\n') + 1));
      return complete(dir) ? Optional.of(dir) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
