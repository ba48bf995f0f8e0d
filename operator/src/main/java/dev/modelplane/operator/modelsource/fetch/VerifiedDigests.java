package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Remembers which files were verified against a SHA-256, so a restarted download skips a complete multi-gigabyte
 * file without hashing it again. A sidecar {@code <dir>/.modelplane-fetch/<name>.sha256} holds the digest with the
 * file's size and modification time at verification; it only counts while both still match.
 */
final class VerifiedDigests {
  private final Path dir;

  VerifiedDigests(Path modelDir) {
    this.dir = modelDir.resolve(ModelPaths.STATE_DIR);
  }

  /** Whether {@code file} (named {@code name}) was verified to have {@code sha256} and has not changed since. */
  boolean verified(String name, Path file, String sha256) {
    Path sidecar = sidecar(name);
    try {
      if (!Files.isRegularFile(sidecar)) {
        return false;
      }
      String expected = line(sha256, Files.size(file), Files.getLastModifiedTime(file).toMillis());
      return Files.readString(sidecar, StandardCharsets.UTF_8).strip().equals(expected);
    } catch (IOException e) {
      return false;
    }
  }

  /** Records that {@code file} has {@code sha256} now. Failing to write only costs a rehash later. */
  void record(String name, Path file, String sha256) {
    Path sidecar = sidecar(name);
    try {
      Files.createDirectories(sidecar.getParent());
      Path tmp = sidecar.resolveSibling(sidecar.getFileName() + ".tmp");
      Files.writeString(tmp, line(sha256, Files.size(file), Files.getLastModifiedTime(file).toMillis()) + "\n",
          StandardCharsets.UTF_8);
      Files.move(tmp, sidecar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      forget(name);
    }
  }

  /** Drops the record of {@code name}, if any. */
  void forget(String name) {
    try {
      Files.deleteIfExists(sidecar(name));
    } catch (IOException ignored) {
      // a stale sidecar cannot match a changed file's size and time; nothing else to do
    }
  }

  /** The sidecar's digest, if there is one (for tests and diagnostics). */
  Optional<String> recorded(String name) {
    try {
      String text = Files.readString(sidecar(name), StandardCharsets.UTF_8).strip();
      return text.startsWith("sha256=") ? Optional.of(text.substring(7, Math.min(text.length(), 71)))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private Path sidecar(String name) {
    return ModelPaths.resolve(dir, name + ".sha256");
  }

  private static String line(String sha256, long size, long modifiedMillis) {
    return "sha256=" + sha256 + " size=" + size + " modified=" + modifiedMillis;
  }
}
