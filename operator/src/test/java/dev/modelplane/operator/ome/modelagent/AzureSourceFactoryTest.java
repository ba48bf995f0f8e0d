package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.AzureBlobClient;
import dev.modelplane.operator.modelsource.fetch.AzureBlobSettings;
import dev.modelplane.operator.modelsource.fetch.AzureConnectionString;
import dev.modelplane.operator.modelsource.fetch.AzureCredential;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code az://} models: which Secret keys give which credentials and endpoint, and what a wrong Secret says. */
class AzureSourceFactoryTest {
  private static final String KEY = AzureConnectionString.DEV_ACCOUNT_KEY;
  private static final String SAS = "sv=2021-08-06&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&sig=c2lnbmF0dXJl";
  private static final String URI_TEXT = "az://myaccount.blob.core.windows.net/models/llama/3b";

  @Test
  void noSecretMeansAnonymousReadsOfThePublicCloud() {
    AzureBlobSettings s = settings(null, null, Map.of());
    assertThat(s.endpoint()).isEqualTo(URI.create("https://myaccount.blob.core.windows.net"));
    assertThat(s.account()).isEqualTo("myaccount");
    assertThat(s.container()).isEqualTo("models");
    assertThat(s.prefix()).isEqualTo("llama/3b");
    assertThat(s.credential()).isEqualTo(new AzureCredential.Anonymous());
  }

  @Test
  void theAccountKeySasOrConnectionStringIsReadUnderEitherSpelling() {
    assertThat(settings("az", Map.of("AZURE_STORAGE_ACCOUNT_KEY", KEY), Map.of()).credential())
        .isEqualTo(new AzureCredential.SharedKey(KEY));
    assertThat(settings("az", Map.of("azure_account_key", KEY, "azure_account_name", "myaccount"), Map.of())
        .credential()).isEqualTo(new AzureCredential.SharedKey(KEY));
    assertThat(settings("az", Map.of("AZURE_STORAGE_SAS_TOKEN", "?" + SAS), Map.of()).credential())
        .isEqualTo(new AzureCredential.Sas(SAS));
    assertThat(settings("az", Map.of("azure_sas_token", SAS), Map.of()).credential())
        .isEqualTo(new AzureCredential.Sas(SAS));
    AzureBlobSettings cs = settings("az", Map.of("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=https;"
        + "AccountName=myaccount;AccountKey=" + KEY + ";EndpointSuffix=core.usgovcloudapi.net",
        "AZURE_STORAGE_SAS_TOKEN", SAS), Map.of());
    assertThat(cs.credential()).as("the connection string wins").isEqualTo(new AzureCredential.SharedKey(KEY));
    assertThat(cs.endpoint()).isEqualTo(URI.create("https://myaccount.blob.core.usgovcloudapi.net"));
  }

  @Test
  void theEndpointParameterWinsOverTheConnectionString() {
    AzureBlobSettings s = settings("az", Map.of("azure_connection_string", "AccountName=myaccount;AccountKey=" + KEY
        + ";BlobEndpoint=https://elsewhere.example"), Map.of("endpoint", "http://127.0.0.1:10000/myaccount/"));
    assertThat(s.endpoint()).isEqualTo(URI.create("http://127.0.0.1:10000/myaccount"));
  }

  @Test
  void aSecretWithoutUsableKeysIsNamedWithTheKeysItNeeds() {
    String keys = "AZURE_STORAGE_CONNECTION_STRING, azure_connection_string, connection_string; or "
        + "AZURE_STORAGE_ACCOUNT_KEY, AZURE_STORAGE_KEY, azure_account_key, account_key; or AZURE_STORAGE_SAS_TOKEN, "
        + "azure_sas_token, sas_token";
    assertThat(create("az", Map.of("token", "x"), Map.of())).isEqualTo(new ModelSourceFactory.Outcome.Refused(
        "MissingCredentials", "Secret 'az' in namespace 'team-a' needs one of the keys " + keys));
    assertThat(create("az", Map.of("AZURE_CLIENT_ID", "id", "AZURE_CLIENT_SECRET", "s", "AZURE_TENANT_ID", "t"),
        Map.of())).isEqualTo(new ModelSourceFactory.Outcome.Refused("MissingCredentials", "Secret 'az' in namespace "
        + "'team-a' holds Azure AD credentials (AZURE_CLIENT_ID, AZURE_CLIENT_SECRET, AZURE_TENANT_ID), which the "
        + "model agent does not use for az:// downloads; give it one of the keys " + keys));
    assertThat(create("az", null, Map.of())).isEqualTo(new ModelSourceFactory.Outcome.Refused("MissingCredentials",
        "Secret 'az' (spec.storage.key) not found in namespace 'team-a'"));
  }

  @Test
  void unusableValuesAreNamedByKeyNeverShown() {
    assertThat(create("az", Map.of("AZURE_STORAGE_ACCOUNT_KEY", "not base64!"), Map.of()))
        .isEqualTo(new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "spec.storage.key: Secret 'az' in "
            + "namespace 'team-a', key AZURE_STORAGE_ACCOUNT_KEY: the Azure account key is not base64 (it is shown "
            + "as base64 in the portal and in connection strings)"));
    assertThat(create("az", Map.of("AZURE_STORAGE_SAS_TOKEN", "sv=2021-08-06"), Map.of()))
        .isEqualTo(new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "spec.storage.key: Secret 'az' in "
            + "namespace 'team-a', key AZURE_STORAGE_SAS_TOKEN: the Azure SAS token has no sig= parameter: it must be "
            + "the query string of a shared access signature (sv=...&sig=...)"));
    assertThat(create("az", Map.of("AZURE_STORAGE_CONNECTION_STRING", "AccountName=other;AccountKey=" + KEY),
        Map.of())).isEqualTo(new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "spec.storage.key: Secret "
        + "'az' in namespace 'team-a' (AccountName in AZURE_STORAGE_CONNECTION_STRING) is for storage account 'other', "
        + "not for account 'myaccount' of spec.storage.storageUri"));
    assertThat(create("az", Map.of("AZURE_STORAGE_ACCOUNT_NAME", "other", "AZURE_STORAGE_ACCOUNT_KEY", KEY),
        Map.of())).isEqualTo(new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "spec.storage.key: Secret "
        + "'az' in namespace 'team-a' (AZURE_STORAGE_ACCOUNT_NAME) is for storage account 'other', not for account "
        + "'myaccount' of spec.storage.storageUri"));
  }

  @Test
  void aBadContainerOrEndpointIsRefused() {
    assertThat(create(null, null, Map.of("endpoint", "::not a url"))).isEqualTo(new ModelSourceFactory.Outcome
        .Refused("InvalidStorageUri", "spec.storage.parameters.endpoint is not a URL"));
    assertThat(create(null, null, Map.of("endpoint", "ftp://127.0.0.1/x"))).isEqualTo(new ModelSourceFactory.Outcome
        .Refused("InvalidStorageUri", "spec.storage.parameters.endpoint: Azure Blob endpoint must be an http(s) URL "
        + "with a host, got 'ftp://127.0.0.1/x'"));
    ModelSourceFactory.Outcome outcome = factory(null).create(model(null, Map.of(), "az://acct/Bad_Container/x"),
        StorageUri.parse("az://acct/Bad_Container/x", "f"));
    assertThat(outcome).isInstanceOf(ModelSourceFactory.Outcome.Refused.class)
        .extracting(o -> ((ModelSourceFactory.Outcome.Refused) o).reason()).isEqualTo("InvalidStorageUri");
  }

  private static AzureBlobSettings settings(String secret, Map<String, String> data, Map<String, String> params) {
    ModelSourceFactory.Outcome outcome = create(secret, data, params);
    assertThat(outcome).isInstanceOf(ModelSourceFactory.Outcome.Ready.class);
    return ((AzureBlobClient) ((ModelSourceFactory.Outcome.Ready) outcome).source()).settings();
  }

  private static ModelSourceFactory.Outcome create(String secret, Map<String, String> data,
      Map<String, String> params) {
    return factory(data).create(model(secret, params, URI_TEXT), StorageUri.parse(URI_TEXT, "f"));
  }

  private static ModelSourceFactory factory(Map<String, String> data) {
    ModelAgentSettings settings = ModelAgentSettings.of("node-a", "modelplane-system",
        ModelRoots.parse(List.of("/raid/models")));
    return new ModelSourceFactory((ns, name) -> data, settings);
  }

  private static AgentModel model(String secret, Map<String, String> params, String uri) {
    return new AgentModel(new BaseModelKey("team-a", "llama"), new StorageSpec(null, null, params, secret, uri, null,
        null, null), false, false);
  }
}
