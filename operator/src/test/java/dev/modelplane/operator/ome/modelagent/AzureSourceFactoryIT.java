package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.ModelFileSource;
import dev.modelplane.operator.modelsource.fetch.RemoteFile;
import dev.modelplane.operator.modelsource.fetch.RemoteStream;
import dev.modelplane.operator.modelsource.fetch.SharedKeySigner;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.testsupport.AzuriteServer;
import dev.modelplane.testsupport.TestModelStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code az://} model's Secret and parameters, as {@link AzuriteServer} gives them through {@link TestModelStore},
 * turned into a working client by the agent's factory: account key, connection string and SAS token spellings.
 */
class AzureSourceFactoryIT {
  @TempDir
  static Path serverDir;
  private static AzuriteServer server;

  @BeforeAll
  static void start() throws IOException {
    SharedKeySigner signer = new SharedKeySigner(AzuriteServer.ACCOUNT, AzuriteServer.ACCOUNT_KEY);
    server = AzuriteServer.startOrSkip(serverDir, signer::authorization);
    server.put("qwen/0.5b", "config.json", "{\"model_type\":\"qwen2\"}".getBytes());
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theStoresSecretAndParametersReadTheModel() throws IOException {
    assertThat(server.scheme()).isEqualTo("az");
    assertReads(server.secretData(), server.parameters());
  }

  @Test
  void aConnectionStringWithTheBlobEndpointNeedsNoParameters() throws IOException {
    assertReads(Map.of("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=http;AccountName="
        + AzuriteServer.ACCOUNT + ";AccountKey=" + AzuriteServer.ACCOUNT_KEY + ";BlobEndpoint=" + server.endpoint()),
        Map.of());
  }

  private static void assertReads(Map<String, String> secret, Map<String, String> params) throws IOException {
    String uri = server.storageUri("qwen/0.5b");
    ModelAgentSettings settings = ModelAgentSettings.of("node-a", "modelplane-system",
        ModelRoots.parse(List.of("/raid/models")));
    AgentModel model = new AgentModel(new BaseModelKey("team-a", "qwen"), new StorageSpec(null, null, params,
        "azure-models", uri, null, null, null), false, false);
    ModelSourceFactory.Outcome outcome = new ModelSourceFactory((ns, name) -> secret, settings)
        .create(model, StorageUri.parse(uri, "f"));
    assertThat(outcome).isInstanceOf(ModelSourceFactory.Outcome.Ready.class);
    ModelFileSource source = ((ModelSourceFactory.Outcome.Ready) outcome).source();
    List<RemoteFile> files = source.list();
    assertThat(files).extracting(RemoteFile::path).containsExactly("config.json");
    try (RemoteStream in = source.open(files.get(0), 0)) {
      assertThat(new String(in.readAllBytes())).isEqualTo("{\"model_type\":\"qwen2\"}");
    }
  }
}
