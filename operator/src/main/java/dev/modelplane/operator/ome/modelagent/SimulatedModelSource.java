package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.fetch.ModelFileSource;
import dev.modelplane.operator.modelsource.fetch.RemoteFile;
import dev.modelplane.operator.modelsource.fetch.RemoteStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * A model source for clusters whose model servers are simulators: one small file that says where the model would
 * have come from, so that the agent's directory, node label, status ConfigMap and the serving pods' mounts are all as
 * after a real download, without network or credentials.
 */
final class SimulatedModelSource implements ModelFileSource {
  /** The one file a simulated model directory holds. */
  static final String FILE = "MODELPLANE-SIMULATED.txt";
  private final String uri;
  private final byte[] content;

  SimulatedModelSource(String uri) {
    this.uri = uri;
    this.content = ("This directory stands for the model at " + uri + ".\nThe model agent runs with simulated "
        + "downloads (a local cluster whose model servers are simulators): nothing was downloaded.\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public List<RemoteFile> list() {
    return List.of(RemoteFile.of(FILE, content.length));
  }

  @Override
  public RemoteStream open(RemoteFile file, long offset) throws IOException {
    if (!FILE.equals(file.path())) {
      throw new IOException("a simulated model has only " + FILE + ", not " + file.path());
    }
    ByteArrayInputStream in = new ByteArrayInputStream(content);
    in.skipNBytes(Math.min(offset, content.length));
    return new RemoteStream(in, Math.min(offset, content.length));
  }

  @Override
  public Optional<String> revision() {
    return Optional.of("simulated");
  }

  @Override
  public String describe() {
    return uri + " (simulated)";
  }
}
