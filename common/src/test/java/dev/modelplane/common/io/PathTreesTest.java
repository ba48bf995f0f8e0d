package dev.modelplane.common.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathTreesTest {
  @TempDir
  Path tmp;

  @Test
  void deletesATreeWithItsHiddenAndEmptyEntries() throws IOException {
    Path root = tmp.resolve("root");
    Files.createDirectories(root.resolve("a/b/c"));
    Files.createDirectories(root.resolve("empty"));
    Files.writeString(root.resolve("a/b/c/file"), "x");
    Files.writeString(root.resolve(".hidden"), "x");
    PathTrees.deleteRecursively(root);
    assertThat(root).doesNotExist();
    assertThat(tmp).isEmptyDirectory();
  }

  @Test
  void aMissingRootIsNothingToDo() throws IOException {
    PathTrees.deleteRecursively(tmp.resolve("missing"));
    PathTrees.deleteRecursively(tmp.resolve("missing/deeper"));
    assertThat(tmp).isEmptyDirectory();
  }

  @Test
  void aSingleFileIsDeleted() throws IOException {
    Path file = Files.writeString(tmp.resolve("file"), "x");
    PathTrees.deleteRecursively(file);
    assertThat(file).doesNotExist();
  }

  @Test
  void symbolicLinksAreDeletedNotFollowed() throws IOException {
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Path kept = Files.writeString(outside.resolve("kept"), "keep me");
    Path root = Files.createDirectories(tmp.resolve("root"));
    Files.createSymbolicLink(root.resolve("to-dir"), outside);
    Files.createSymbolicLink(root.resolve("to-file"), kept);
    Files.createSymbolicLink(root.resolve("dangling"), tmp.resolve("nowhere"));
    PathTrees.deleteRecursively(root);
    assertThat(root).doesNotExist();
    assertThat(kept).hasContent("keep me");
    assertThat(outside).isDirectory();
  }

  @Test
  void aLinkGivenAsTheRootIsDeletedAlone() throws IOException {
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Path kept = Files.writeString(outside.resolve("kept"), "keep me");
    Path link = Files.createSymbolicLink(tmp.resolve("link"), outside);
    PathTrees.deleteRecursively(link);
    assertThat(Files.exists(link, LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(kept).hasContent("keep me");
  }

  @Test
  void whatCannotBeDeletedIsReportedAfterTheRestIsGone() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("root"));
    Path locked = Files.createDirectories(root.resolve("locked"));
    Files.writeString(locked.resolve("stuck"), "x");
    Path free = Files.writeString(root.resolve("free"), "x");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
    try {
      Assumptions.assumeFalse(Files.isWritable(locked), "running as root: permissions stop no delete");
      assertThatThrownBy(() -> PathTrees.deleteRecursively(root)).isInstanceOf(IOException.class)
          .hasMessageContaining("stuck");
      assertThat(free).doesNotExist();
      assertThat(locked.resolve("stuck")).exists();
    } finally {
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
    }
  }
}
