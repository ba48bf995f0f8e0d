package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.OciClient;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.testsupport.OciTestKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the agent builds an oci:// source from a model's storage parameters and Secret, and the messages when it can't. */
class OciSourceFactoryTest {
  private static final OciTestKey KEY = OciTestKey.generate();
  private static final String URI = "oci://n/tenancy-ns/b/models/o/meta/llama";

  @Test
  void anApiKeyInOciKeyNamesBuildsAClientForTheRegion() {
    ModelSourceFactory.Outcome outcome = create(Map.of("region", "eu-frankfurt-1"), "oci-key", apiKey());
    assertThat(outcome).isInstanceOfSatisfying(ModelSourceFactory.Outcome.Ready.class, ready -> {
      OciClient client = (OciClient) ready.source();
      assertThat(client.settings().endpoint()).hasToString("https://objectstorage.eu-frankfurt-1.oraclecloud.com");
      assertThat(client.describe()).isEqualTo(URI);
      assertThat(client.settings().toString()).contains(KEY.keyId()).doesNotContain("PRIVATE");
    });
  }

  @Test
  void aConfigFileWithTheKeyFileBesideItIsReadAtTheProfileAndGivesTheRegion() {
    Map<String, String> data = Map.of("config", "[DEFAULT]\nregion=us-ashburn-1\n\n[TEAM]\n# a comment\nuser = "
        + KEY.user() + "\nfingerprint=" + KEY.fingerprint() + "\ntenancy=" + KEY.tenancy()
        + "\nkey_file=/etc/oci/oci_api_key.pem\n", "oci_api_key.pem", KEY.privateKeyPem());
    ModelSourceFactory.Outcome outcome = create(Map.of("profile", "TEAM", "auth", "UserPrincipal"), "oci", data);
    assertThat(outcome).isInstanceOfSatisfying(ModelSourceFactory.Outcome.Ready.class, ready -> assertThat(
        ((OciClient) ready.source()).settings().endpoint()).hasToString(
            "https://objectstorage.us-ashburn-1.oraclecloud.com"));
    assertThat(create(Map.of("profile", "OTHER"), "oci", data)).isEqualTo(refused("MissingCredentials",
        "Secret 'oci' in namespace 'team-a': the OCI config file under key 'config' has no profile [OTHER] "
            + "(spec.storage.parameters.profile)"));
  }

  @Test
  void aSessionTokenSignsWithItsKeyId() {
    Map<String, String> data = Map.of("security_token", "token-value", "key", KEY.privateKeyPem());
    assertThat(create(Map.of("endpoint", "http://127.0.0.1:9"), "oci", data))
        .isInstanceOfSatisfying(ModelSourceFactory.Outcome.Ready.class, ready -> assertThat(((OciClient)
            ready.source()).settings().signer().toString()).isEqualTo("OciSigner[keyId=ST$<token>]"));
    assertThat(create(Map.of("endpoint", "http://127.0.0.1:9", "auth", "security_token"), "oci",
        Map.of("key", KEY.privateKeyPem()))).isEqualTo(refused("MissingCredentials", "Secret 'oci' in namespace "
            + "'team-a' lacks security_token for OCI session token signing (keys: tenancy, user, fingerprint, "
            + "key[, pass_phrase] or security_token and key)"));
  }

  @Test
  void missingOrWrongCredentialsNameTheSecretAndKeysButNoValue() {
    Map<String, String> partial = new HashMap<>(apiKey());
    partial.remove("fingerprint");
    partial.remove("key");
    assertThat(create(Map.of("region", "r"), "oci", partial)).isEqualTo(refused("MissingCredentials",
        "Secret 'oci' in namespace 'team-a' lacks key, fingerprint for OCI API key signing (keys: tenancy, user, "
            + "fingerprint, key[, pass_phrase] or security_token and key)"));
    assertThat(create(Map.of("region", "r"), "gone", null)).isEqualTo(refused("MissingCredentials",
        "Secret 'gone' (spec.storage.key) not found in namespace 'team-a'"));
    Map<String, String> otherKey = new HashMap<>(apiKey());
    otherKey.put("key", OciTestKey.generate().privateKeyPem());
    ModelSourceFactory.Outcome mismatch = create(Map.of("region", "r"), "oci", otherKey);
    assertThat(mismatch).isInstanceOfSatisfying(ModelSourceFactory.Outcome.Refused.class, r -> {
      assertThat(r.reason()).isEqualTo("InvalidCredentials");
      assertThat(r.message()).startsWith("Secret 'oci' in namespace 'team-a': fingerprint " + KEY.fingerprint()
          + " is not the fingerprint of the private key under 'key' (").doesNotContain("PRIVATE");
    });
    Map<String, String> garbled = new HashMap<>(apiKey());
    garbled.put("key", "not a key");
    assertThat(create(Map.of("region", "r"), "oci", garbled)).isEqualTo(refused("InvalidCredentials",
        "Secret 'oci' in namespace 'team-a' key 'key': not a PEM private key (no -----BEGIN ... PRIVATE KEY----- "
            + "block)"));
  }

  @Test
  void principalsWithoutASecretAreRefusedNamingWhatIsSupported() {
    for (String auth : List.of("InstancePrincipal", "instance_principal", "OCIResourcePrincipal",
        "OkeWorkloadIdentity")) {
      assertThat(create(Map.of("auth", auth), null, null)).isEqualTo(refused("UnsupportedAuth",
          "spec.storage.parameters.auth: " + auth + " authentication is not supported by modelplane's model agent; "
              + "supported: UserPrincipal (API key) and security_token (session token), from the Secret named by "
              + "spec.storage.key"));
    }
    assertThat(create(Map.of("auth", "magic"), null, null)).isEqualTo(refused("InvalidStorageUri",
        "spec.storage.parameters.auth: unknown OCI authentication 'magic'; supported: UserPrincipal (API key) and "
            + "security_token (session token), from the Secret named by spec.storage.key"));
    assertThat(create(Map.of(), null, null)).isEqualTo(refused("MissingCredentials", "spec.storage.key: oci:// "
        + "downloads need a Secret with an OCI API key (tenancy, user, fingerprint, key) or session token "
        + "(security_token, key), or an OCI config file (config); without one OME would use the instance "
        + "principal, which is not supported"));
  }

  @Test
  void withoutRegionOrEndpointTheRegionIsAskedFor() {
    assertThat(create(Map.of(), "oci", apiKey())).isEqualTo(refused("InvalidStorageUri",
        "spec.storage.parameters.region: oci:// needs the bucket's region (e.g. eu-frankfurt-1), from the "
            + "parameter or the credentials' region, or spec.storage.parameters.endpoint"));
    assertThat(create(Map.of("region", "EU Frankfurt"), "oci", apiKey())).isEqualTo(refused("InvalidStorageUri",
        "spec.storage.parameters.region: OCI region must be lowercase letters, digits and '-' (e.g. "
            + "eu-frankfurt-1), got 'EU Frankfurt'"));
  }

  private static Map<String, String> apiKey() {
    return Map.of("tenancy", KEY.tenancy(), "user", KEY.user(), "fingerprint", KEY.fingerprint(), "key",
        KEY.privateKeyPem());
  }

  private static ModelSourceFactory.Outcome refused(String reason, String message) {
    return new ModelSourceFactory.Outcome.Refused(reason, message);
  }

  private static ModelSourceFactory.Outcome create(Map<String, String> params, String secret,
      Map<String, String> data) {
    ModelAgentSettings settings = ModelAgentSettings.of("node-a", "modelplane-system",
        ModelRoots.parse(List.of("/raid/models")));
    ModelSourceFactory factory = new ModelSourceFactory((ns, name) -> data, settings);
    AgentModel model = new AgentModel(new BaseModelKey("team-a", "llama"), new StorageSpec(null, null, params, secret,
        URI, null, null, null), false, false);
    return factory.create(model, StorageUri.parse(URI, "f"));
  }
}
