package dev.modelplane.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds a tool a {@code hack/<name>/build.sh} (or {@code install.sh}) script built and cached, without building it:
 * the script's {@code --check} prints the bin directory when the cache is complete. The script is looked up from the
 * system property {@code modelplane.repo.root}, else from the working directory upwards.
 */
final class HackBuild {
  private HackBuild() {
  }

  /**
   * The executable {@code binary} in the bin directory the system property {@code property} names, else in the
   * environment variable {@code variable}, else in the one {@code hack/<script>} reports. A bin directory given is
   * the only place looked at.
   */
  static Optional<Path> binary(String property, String variable, String script, String binary) {
    String configured = System.getProperty(property, System.getenv(variable));
    if (configured != null && !configured.isBlank()) {
      Path path = Path.of(configured).resolve(binary);
      return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
    }
    return cachedBinary(script, binary);
  }

  /**
   * The executable {@code binary} in the bin directory {@code hack/<script>} reports, if it is built.
   *
   * @param script the script's path under {@code hack/}, e.g. {@code gcs-server/build.sh}
   */
  static Optional<Path> cachedBinary(String script, String binary) {
    return find(script).flatMap(HackBuild::checkedBinDir).map(d -> d.resolve(binary)).filter(Files::isExecutable);
  }

  private static Optional<Path> find(String script) {
    String root = System.getProperty("modelplane.repo.root");
    Path start = root != null && !root.isBlank() ? Path.of(root) : Path.of("").toAbsolutePath();
    for (Path d = start; d != null; d = d.getParent()) {
      Path candidate = d.resolve("hack").resolve(script);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> checkedBinDir(Path script) {
    try {
      Process check = new ProcessBuilder(script.toString(), "--check").redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!check.waitFor(60, TimeUnit.SECONDS) || check.exitValue() != 0 || out.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(Path.of(out.substring(out.lastIndexOf('\n') + 1)));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
