package dev.modelplane.operator.ome.modelagent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a download fits before it starts: the bytes still missing in its directory (the listed total less what is
 * already there, partial files included) against the free space of the file system and the root's budget (what the
 * root holds now plus what is missing, at most {@link AgentLimits#diskBudgetBytes}).
 */
final class DiskBudget {
  /** Reason of a download that does not fit. */
  static final String INSUFFICIENT_STORAGE = "InsufficientStorage";

  /** Sizes on disk. */
  interface Space {
    /** Bytes this process may still write on the file system of {@code dir} (or of its nearest existing parent). */
    long usable(Path dir) throws IOException;

    /** Bytes of the regular files under {@code dir}; 0 when it does not exist. */
    long used(Path dir) throws IOException;
  }

  /** The real file system. */
  static final Space FILES = new Space() {
    @Override
    public long usable(Path dir) throws IOException {
      Path p = dir.toAbsolutePath();
      while (p != null && !Files.exists(p)) {
        p = p.getParent();
      }
      return p == null ? Long.MAX_VALUE : Files.getFileStore(p).getUsableSpace();
    }

    @Override
    public long used(Path dir) throws IOException {
      if (!Files.isDirectory(dir)) {
        return 0;
      }
      long[] sum = {0};
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          if (attrs.isRegularFile()) {
            sum[0] += attrs.size();
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE;
          }
          throw e;
        }
      });
      return sum[0];
    }
  };

  private final ModelRoots roots;
  private final long budget;
  private final Space space;

  DiskBudget(ModelRoots roots, long budget, Space space) {
    this.roots = roots;
    this.budget = budget;
    this.space = space;
  }

  /**
   * Why {@code totalBytes} of files cannot go into {@code target}, with the numbers; empty when they fit.
   *
   * @throws UncheckedIOException when the sizes cannot be read
   */
  Optional<String> refusal(ModelRoots.Resolved target, long totalBytes) {
    try {
      long present = space.used(target.localPath());
      long needed = Math.max(0, totalBytes - present);
      long free = space.usable(target.localPath());
      if (needed > free) {
        return Optional.of("the model needs " + bytes(needed) + " more in " + target.specPath() + " (" + bytes(
            totalBytes) + " in all, " + bytes(present) + " already there), but only " + bytes(free)
            + " are free on the node's file system");
      }
      if (budget > 0) {
        ModelRoots.Root root = roots.roots().stream().filter(r -> target.specPath().startsWith(r.specPath()))
            .findFirst().orElse(null);
        if (root != null) {
          long used = space.used(root.localPath());
          if (used + needed > budget) {
            return Optional.of("the model needs " + bytes(needed) + " more in " + target.specPath() + " ("
                + bytes(totalBytes) + " in all, " + bytes(present) + " already there), but the disk budget of "
                + root.specPath() + " is " + bytes(budget) + " and " + bytes(used) + " are used (" + bytes(
                Math.max(0, budget - used)) + " left; agent flag --disk-budget)");
          }
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code 1234 bytes (1.2 KiB)}. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " bytes";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return n + " bytes (" + String.format(Locale.ROOT, "%.1f", v) + " " + units[u] + ")";
  }
}
