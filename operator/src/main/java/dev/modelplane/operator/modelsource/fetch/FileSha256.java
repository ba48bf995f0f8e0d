package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.BooleanSupplier;

/** Streams files through SHA-256, checking for cancellation between blocks. */
final class FileSha256 {
  private static final int BLOCK = 1 << 20;

  private FileSha256() {
  }

  static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  /** Feeds the whole file into {@code digest}. */
  static void update(MessageDigest digest, Path file, BooleanSupplier cancelled, String what)
      throws FetchException {
    byte[] buffer = new byte[BLOCK];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
        if (cancelled.getAsBoolean()) {
          throw new FetchException(FetchException.Kind.CANCELLED, "download cancelled while hashing " + what);
        }
      }
    } catch (FetchException e) {
      throw e;
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.STORAGE, "cannot read " + what + " to hash it: "
          + HttpSender.describe(e), e);
    }
  }

  /** The file's SHA-256 as lowercase hex. */
  static String of(Path file, BooleanSupplier cancelled, String what) throws FetchException {
    MessageDigest digest = newDigest();
    update(digest, file, cancelled, what);
    return hex(digest);
  }

  static String hex(MessageDigest digest) {
    return HexFormat.of().formatHex(digest.digest());
  }
}
