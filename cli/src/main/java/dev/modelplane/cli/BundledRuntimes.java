package dev.modelplane.cli;

import dev.modelplane.cli.user.ManifestRollout;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The OME ClusterServingRuntimes modelplane ships ({@code deploy/runtimes/}: vLLM, SGLang plain, prefill/decode and
 * multi-node, llama.cpp), which {@code modelplane up} installs so that OME InferenceServices find a runtime as on a
 * cluster where the platform team applied them. Read from the checkout when there is one, else from the jar.
 */
final class BundledRuntimes {
  static final String DIR = "deploy/runtimes";
  /** The files of {@value #DIR}, also packaged in the jar (a test keeps the list equal to the directory). */
  static final List<String> FILES = List.of("llama-cpp.yaml", "sglang-multinode.yaml", "sglang-pd.yaml",
      "sglang.yaml", "vllm.yaml");
  private static final String FIELD_MANAGER = "modelplane-up-runtimes";

  private BundledRuntimes() {
  }

  /** Each runtime manifest's bytes. */
  static List<byte[]> manifests() throws IOException {
    String root = System.getProperty("modelplane.repo.root");
    List<byte[]> out = new ArrayList<>();
    for (String file : FILES) {
      Path path = root == null ? null : Path.of(root, DIR, file);
      if (path != null && Files.isRegularFile(path)) {
        out.add(Files.readAllBytes(path));
        continue;
      }
      try (InputStream in = BundledRuntimes.class.getResourceAsStream("runtimes/" + file)) {
        if (in == null) {
          throw new IOException("the bundled runtime " + file + " is missing from the distribution");
        }
        out.add(in.readAllBytes());
      }
    }
    return out;
  }

  /** Applies every bundled runtime; returns the names applied. */
  static List<String> install(KubernetesClient client) throws IOException {
    List<String> names = new ArrayList<>();
    for (byte[] manifest : manifests()) {
      for (HasMetadata o : ManifestRollout.apply(client, new ByteArrayInputStream(manifest), FIELD_MANAGER)) {
        names.add(o.getMetadata().getName());
      }
    }
    return names;
  }
}
