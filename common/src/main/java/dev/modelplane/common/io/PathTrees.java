package dev.modelplane.common.io;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/** Whole directory trees on the local file system. */
public final class PathTrees {
  private PathTrees() {
  }

  /**
   * Deletes {@code root} and everything under it; nothing when it does not exist. Symbolic links are deleted, never
   * followed, so a link to a directory elsewhere leaves that directory as it is (a link given as {@code root} is
   * deleted alone). Entries that disappear meanwhile are fine. What cannot be deleted does not stop the rest.
   *
   * @throws IOException the first entry that could not be read or deleted, with the others suppressed in it
   */
  public static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    List<IOException> failures = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        delete(file, failures);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        if (!(e instanceof NoSuchFileException)) {
          failures.add(e);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) {
        if (e != null && !(e instanceof NoSuchFileException)) {
          failures.add(e);
        }
        delete(dir, failures);
        return FileVisitResult.CONTINUE;
      }
    });
    if (!failures.isEmpty()) {
      IOException first = failures.get(0);
      failures.subList(1, failures.size()).forEach(first::addSuppressed);
      throw first;
    }
  }

  private static void delete(Path path, List<IOException> failures) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      failures.add(e);
    }
  }
}
