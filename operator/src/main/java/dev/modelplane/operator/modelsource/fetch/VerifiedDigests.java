package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Remembers which files were verified against their checksum, so a restarted download skips a complete
 * multi-gigabyte file without hashing it again. A sidecar {@code <dir>/.modelplane-fetch/<name>.sha256} holds the
 * checksum ({@code <algorithm>=<hex>}) with the file's size and modification time at verification; it only counts
 * while both still match.
 */
final class VerifiedDigests {
  private final Path dir;

  VerifiedDigests(Path modelDir) {
    this.dir = modelDir.resolve(ModelPaths.STATE_DIR);
  }

  /** Whether {@code file} (named {@code name}) was verified to have {@code checksum} and has not changed since. */
  boolean verified(String name, Path file, ContentChecksum checksum) {
    Path sidecar = sidecar(name);
    try {
      if (!Files.isRegularFile(sidecar)) {
        return false;
      }
      String expected = line(checksum, Files.size(file), Files.getLastModifiedTime(file).toMillis());
      return Files.readString(sidecar, StandardCharsets.UTF_8).strip().equals(expected);
    } catch (IOException e) {
      return false;
    }
  }

  /** Records that {@code file} has {@code checksum} now. Failing to write only costs a rehash later. */
  void record(String name, Path file, ContentChecksum checksum) {
    Path sidecar = sidecar(name);
    try {
      Files.createDirectories(sidecar.getParent());
      Path tmp = sidecar.resolveSibling(sidecar.getFileName() + ".tmp");
      Files.writeString(tmp, line(checksum, Files.size(file), Files.getLastModifiedTime(file).toMillis()) + "\n",
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

  /** The hex of the sidecar's checksum, if there is one (for tests and diagnostics). */
  Optional<String> recorded(String name) {
    try {
      String text = Files.readString(sidecar(name), StandardCharsets.UTF_8).strip();
      int eq = text.indexOf('=');
      int end = text.indexOf(' ');
      return eq > 0 && end > eq ? Optional.of(text.substring(eq + 1, end)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private Path sidecar(String name) {
    return ModelPaths.resolve(dir, name + ".sha256");
  }

  private static String line(ContentChecksum checksum, long size, long modifiedMillis) {
    return checksum.algorithm().label() + "=" + checksum.hex() + " size=" + size + " modified=" + modifiedMillis;
  }
}
