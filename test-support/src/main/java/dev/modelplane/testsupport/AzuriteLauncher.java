package dev.modelplane.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds Azurite's launcher without installing it: in the directory {@code $MODELPLANE_AZURITE_BIN} (or the system
 * property {@code modelplane.azurite.bin}) names, else in the cache {@code hack/azurite/install.sh --check} reports
 * (the script is looked for from {@code modelplane.repo.root}, else the working directory, upwards).
 */
final class AzuriteLauncher {
  private AzuriteLauncher() {
  }

  static Optional<Path> find(String launcher) {
    String configured = System.getProperty("modelplane.azurite.bin", System.getenv("MODELPLANE_AZURITE_BIN"));
    if (configured != null && !configured.isBlank()) {
      Path path = Path.of(configured).resolve(launcher);
      return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
    }
    return installScript().flatMap(AzuriteLauncher::checkedDir).map(d -> d.resolve(launcher))
        .filter(Files::isExecutable);
  }

  private static Optional<Path> installScript() {
    String root = System.getProperty("modelplane.repo.root");
    Path start = root != null && !root.isBlank() ? Path.of(root) : Path.of("").toAbsolutePath();
    for (Path d = start; d != null; d = d.getParent()) {
      Path script = d.resolve("hack/azurite/install.sh");
      if (Files.isExecutable(script)) {
        return Optional.of(script);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> checkedDir(Path script) {
    try {
      Process check = new ProcessBuilder(script.toString(), "--check")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
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
