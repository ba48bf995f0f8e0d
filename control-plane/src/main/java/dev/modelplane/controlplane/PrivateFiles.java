package dev.modelplane.controlplane;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files only their owner may read, for credentials (kubeconfigs, private keys) and the directories holding them:
 * directories {@code 0700}, files {@code 0600}, on file systems with POSIX permissions (elsewhere left as the file
 * system makes them). A file is created with its permissions before anything is written into it.
 */
public final class PrivateFiles {
  private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private PrivateFiles() {
  }

  /** Creates {@code dir} (and its parents) when missing and makes it the owner's only. */
  public static Path directory(Path dir) throws IOException {
    Files.createDirectories(dir);
    if (posix()) {
      Files.setPosixFilePermissions(dir, DIRECTORY);
    }
    return dir;
  }

  /** Makes an existing file the owner's only. */
  public static Path restrict(Path file) throws IOException {
    if (posix()) {
      Files.setPosixFilePermissions(file, FILE);
    }
    return file;
  }

  /** Writes {@code text} to {@code file} (replacing it) through a new file readable by its owner only. */
  public static Path write(Path file, String text) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    FileAttribute<?>[] attributes = posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
        : new FileAttribute<?>[0];
    Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp", attributes);
    try {
      Files.writeString(tmp, text);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return restrict(file);
  }

  /** Copies {@code from} to {@code to} (replacing it), readable by its owner only. */
  public static Path copy(Path from, Path to) throws IOException {
    return write(to, Files.readString(from));
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }
}
