package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/** Streams files through a checksum, checking for cancellation between blocks. */
final class FileChecksums {
  private static final int BLOCK = 1 << 20;

  private FileChecksums() {
  }

  /** Feeds the whole file into {@code hasher}. */
  static void update(ContentChecksum.Hasher hasher, Path file, BooleanSupplier cancelled, String what)
      throws FetchException {
    byte[] buffer = new byte[BLOCK];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        hasher.update(buffer, 0, n);
        if (cancelled.getAsBoolean()) {
          throw new FetchException(FetchException.Kind.CANCELLED, "download cancelled while checking " + what);
        }
      }
    } catch (FetchException e) {
      throw e;
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.STORAGE, "cannot read " + what + " to check it: "
          + HttpSender.describe(e), e);
    }
  }

  /** The file's checksum in {@code algorithm}. */
  static ContentChecksum of(ContentChecksum.Algorithm algorithm, Path file, BooleanSupplier cancelled, String what)
      throws FetchException {
    ContentChecksum.Hasher hasher = algorithm.newHasher();
    update(hasher, file, cancelled, what);
    return new ContentChecksum(algorithm, hasher.hex());
  }
}
