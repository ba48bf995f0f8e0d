package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Credentials of the local control plane: kubeconfigs and private keys 0600, their directories 0700. */
class PrivateFilesTest {
  @TempDir
  Path tmp;

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void directoriesAndFilesAreTheOwnersOnlyEvenWhenTheyExistedBefore() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("state"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwxr-xr-x")));
    assertThat(mode(PrivateFiles.directory(dir))).isEqualTo("rwx------");
    assertThat(mode(PrivateFiles.directory(tmp.resolve("new/nested")))).isEqualTo("rwx------");

    Path old = Files.writeString(dir.resolve("kubeconfig"), "old");
    Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));
    Path source = Files.writeString(tmp.resolve("source"), "client-key-data: c2VjcmV0");
    Path copied = PrivateFiles.copy(source, old);
    assertThat(Files.readString(copied)).isEqualTo("client-key-data: c2VjcmV0");
    assertThat(mode(copied)).isEqualTo("rw-------");
    try (var files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString()).toList()).as("no temporary file left")
          .containsExactly("kubeconfig");
    }
  }

  @Test
  void theControlPlanesKeysAndKubeconfigsAreTheOwnersOnly() throws Exception {
    Pki pki = Pki.create(tmp.resolve("pki"));
    Path kubeconfig = Kubeconfig.write(tmp.resolve("kubeconfig"), "https://127.0.0.1:6443", pki, "admin");
    assertThat(mode(kubeconfig)).isEqualTo("rw-------");
    assertThat(Files.readString(kubeconfig)).contains("client-key-data: ");
    assertThat(mode(pki.dir)).isEqualTo("rwx------");
    for (String key : new String[] {"ca", "admin", "apiserver", "controller-manager", "scheduler", "sa"}) {
      assertThat(mode(pki.key(key))).as(key).isEqualTo("rw-------");
    }
  }
}
