package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.GcsAuth;
import dev.modelplane.operator.modelsource.fetch.GcsClient;
import dev.modelplane.operator.modelsource.fetch.ServiceAccountTokens;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GcsSourceFactoryTest {
  private static final ModelAgentSettings SETTINGS = ModelAgentSettings.of("node-a", "modelplane-system",
      ModelRoots.parse(List.of("/raid/models")));
  private static String keyFile;

  @BeforeAll
  static void key() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    String pem = "-----BEGIN PRIVATE KEY-----\\n" + Base64.getEncoder().encodeToString(rsa.generateKeyPair()
        .getPrivate().getEncoded()) + "\\n-----END PRIVATE KEY-----\\n";
    keyFile = "{\"type\":\"service_account\",\"client_email\":\"reader@p.iam.gserviceaccount.com\","
        + "\"private_key\":\"" + pem + "\",\"token_uri\":\"https://oauth2.googleapis.com/token\"}";
  }

  @Test
  void noSecretReadsAnonymouslyFromGoogleOrTheGivenEndpoint() {
    GcsClient gcs = ready(create(null, null, Map.of()));
    assertThat(gcs.settings().auth()).isEqualTo(GcsAuth.anonymous());
    assertThat(gcs.settings().endpoint()).hasToString("https://storage.googleapis.com");
    assertThat(gcs.settings().bucket()).isEqualTo("bucket");
    assertThat(gcs.settings().prefix()).isEqualTo("models/llama");
    assertThat(ready(create(null, null, Map.of("endpoint", "http://127.0.0.1:4443/"))).settings().endpoint())
        .hasToString("http://127.0.0.1:4443");
  }

  @Test
  void aServiceAccountKeyUnderAnyOfItsNamesOrAnAccessToken() {
    for (String key : List.of("credentials.json", "key_json")) {
      assertThat(ready(create("gcp", Map.of(key, keyFile), Map.of())).settings().auth())
          .isInstanceOf(ServiceAccountTokens.class)
          .satisfies(a -> assertThat(a.describe()).isEqualTo("service account 'reader@p.iam.gserviceaccount.com'"));
    }
    assertThat(ready(create("gcp", Map.of("sa.json", keyFile, "access_token", "t"), Map.of("secretKey", "sa.json")))
        .settings().auth()).isInstanceOf(ServiceAccountTokens.class);
    assertThat(ready(create("gcp", Map.of("access_token", "ya29.abc"), Map.of())).settings().auth())
        .isEqualTo(new GcsAuth.AccessToken("ya29.abc"));
  }

  @Test
  void aMissingSecretOrKeyIsNamedWithoutValues() {
    assertThat(create("gcp", null, Map.of())).isEqualTo(new ModelSourceFactory.Outcome.Refused("MissingCredentials",
        "Secret 'gcp' (spec.storage.key) not found in namespace 'team'"));
    assertThat(create("gcp", Map.of("token", "x"), Map.of())).isEqualTo(new ModelSourceFactory.Outcome.Refused(
        "MissingCredentials", "Secret 'gcp' in namespace 'team' has none of the keys credentials.json, key_json (a "
            + "service account key file) or access_token"));
    assertThat(create("gcp", Map.of("token", "x"), Map.of("secretKey", "sa.json"))).isEqualTo(
        new ModelSourceFactory.Outcome.Refused("MissingCredentials", "Secret 'gcp' in namespace 'team' has none of "
            + "the keys sa.json, credentials.json, key_json (a service account key file) or access_token"));
  }

  @Test
  void anUnusableKeyIsRefusedNamingTheKeyAndWhy() {
    assertThat(create("gcp", Map.of("credentials.json", keyFile.replace("client_email", "mail")), Map.of()))
        .isEqualTo(new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "Secret 'gcp' in namespace 'team': "
            + "key 'credentials.json' is not a usable service account key: the field client_email is missing"));
    ModelSourceFactory.Outcome pkcs1 = create("gcp", Map.of("credentials.json",
        keyFile.replace("BEGIN PRIVATE", "BEGIN RSA PRIVATE")), Map.of());
    assertThat(pkcs1).isInstanceOf(ModelSourceFactory.Outcome.Refused.class);
    assertThat(((ModelSourceFactory.Outcome.Refused) pkcs1).message()).doesNotContain("MII");
    assertThat(create("gcp", Map.of("access_token", "two words"), Map.of())).isEqualTo(
        new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "Secret 'gcp' in namespace 'team': key "
            + "'access_token': an access token must be printable ASCII without spaces"));
  }

  @Test
  void aBadBucketOrEndpointIsAnInvalidUri() {
    assertThat(create(null, null, Map.of("endpoint", "ftp://x"))).isInstanceOf(
        ModelSourceFactory.Outcome.Refused.class).extracting(o -> ((ModelSourceFactory.Outcome.Refused) o).reason())
        .isEqualTo("InvalidStorageUri");
  }

  private static GcsClient ready(ModelSourceFactory.Outcome outcome) {
    assertThat(outcome).isInstanceOf(ModelSourceFactory.Outcome.Ready.class);
    return (GcsClient) ((ModelSourceFactory.Outcome.Ready) outcome).source();
  }

  private static ModelSourceFactory.Outcome create(String secret, Map<String, String> data,
      Map<String, String> params) {
    String uri = "gs://bucket/models/llama";
    AgentModel model = new AgentModel(new BaseModelKey("team", "llama"), new StorageSpec(null, null, params, secret,
        uri, null, null, null), false, false);
    return new ModelSourceFactory((ns, name) -> data, SETTINGS).create(model, StorageUri.parse(uri, "f"));
  }
}
