package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class BundledRuntimesTest {
  private static Path repo() {
    return Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
  }

  @Test
  void theListIsTheRuntimesDirectory() throws IOException {
    try (Stream<Path> files = Files.list(repo().resolve(BundledRuntimes.DIR))) {
      assertThat(files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList())
          .isEqualTo(BundledRuntimes.FILES);
    }
  }

  @Test
  void withoutACheckoutTheRuntimesComeFromTheDistribution() throws IOException {
    String root = System.getProperty("modelplane.repo.root");
    System.clearProperty("modelplane.repo.root");
    try {
      List<byte[]> manifests = BundledRuntimes.manifests();
      assertThat(manifests).hasSize(BundledRuntimes.FILES.size());
      for (int i = 0; i < manifests.size(); i++) {
        assertThat(manifests.get(i)).isEqualTo(Files.readAllBytes(repo().resolve(BundledRuntimes.DIR)
            .resolve(BundledRuntimes.FILES.get(i))));
      }
    } finally {
      if (root != null) {
        System.setProperty("modelplane.repo.root", root);
      }
    }
  }
}
