package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.StorageUriException;
import dev.modelplane.operator.modelsource.fetch.DownloadProgress;
import dev.modelplane.operator.modelsource.fetch.DownloadResult;
import dev.modelplane.operator.modelsource.fetch.FetchException;
import dev.modelplane.operator.modelsource.fetch.ResumableDownloader;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.BaseModelValidator;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One download from any store the model agent reads, outside the agent: the files under a storage URI into a
 * directory, with the same clients, credentials (a Secret's data, given here directly) and verification. A
 * BenchmarkJob's dataset on a store is fetched this way by an init container ({@code modelplane fetch}).
 */
public final class StoreFetch {
  private StoreFetch() {
  }

  /**
   * Downloads everything under {@code storageUri} into {@code dest}, resuming what an earlier run left.
   *
   * @param parameters {@code storage.parameters} (endpoint, region, auth, ...)
   * @param secretData the credentials Secret's data, or null for anonymous access
   * @param hfEndpoint the Hugging Face Hub for {@code hf://}
   * @throws FetchException when the URI is not a store, the credentials are unusable or the download fails; the
   *     message says which
   */
  public static DownloadResult fetch(String storageUri, Map<String, String> parameters, Map<String, String> secretData,
      Path dest, URI hfEndpoint, Consumer<DownloadProgress> progress, BooleanSupplier cancelled) throws IOException {
    StorageUri uri;
    try {
      uri = StorageUri.parse(storageUri, "storageUri");
    } catch (StorageUriException e) {
      throw new FetchException(FetchException.Kind.INVALID, e.getMessage(), e);
    }
    if (!BaseModelValidator.downloaded(uri)) {
      throw new FetchException(FetchException.Kind.INVALID, "storageUri: " + uri.scheme() + ":// is not a store "
          + "to download from (use hf://, s3://, oci://, gs://, az:// or github://)");
    }
    String secret = secretData == null ? null : "fetch-credentials";
    AgentModel model = new AgentModel(new BaseModelKey(null, "fetch"), new StorageSpec(null, null,
        parameters == null ? Map.of() : parameters, secret, storageUri, null, null, null), false, true);
    ModelAgentSettings settings = ModelAgentSettings.of("fetch", ModelAgentSettings.DEFAULT_NAMESPACE,
        ModelRoots.parse(java.util.List.of(dest.toAbsolutePath().toString()))).withHfEndpoint(hfEndpoint);
    ModelSourceFactory factory = new ModelSourceFactory((ns, name) -> secretData, settings);
    return switch (factory.create(model, uri)) {
      case ModelSourceFactory.Outcome.Refused refused -> throw new FetchException(FetchException.Kind.INVALID,
          refused.reason() + ": " + refused.message().replace(ModelPlanner.URI_FIELD, "storageUri")
              .replace("spec.storage.", ""));
      case ModelSourceFactory.Outcome.Ready ready ->
          new ResumableDownloader().download(ready.source(), dest, progress, cancelled);
    };
  }
}
