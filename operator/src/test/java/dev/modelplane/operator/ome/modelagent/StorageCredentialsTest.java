package dev.modelplane.operator.ome.modelagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.ome.modelagent.StorageCredentials.Lookup;
import dev.modelplane.operator.ome.modelagent.StorageCredentials.S3Keys;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StorageCredentialsTest {
  @Test
  void huggingFaceTokenFromTheSecretsTokenKey() {
    assertThat(StorageCredentials.huggingFaceToken("hf", "team", Map.of("token", "hf_abc"), null))
        .isEqualTo(new Lookup.Found<>(Optional.of("hf_abc")));
  }

  @Test
  void huggingFaceTokenFromTheKeyTheParametersName() {
    assertThat(StorageCredentials.huggingFaceToken("hf", "team", Map.of("token", "wrong", "HF_TOKEN", "right"),
        Map.of("secretKey", "HF_TOKEN"))).isEqualTo(new Lookup.Found<>(Optional.of("right")));
  }

  @Test
  void huggingFaceTokenFallsBackToTheTokenParameter() {
    assertThat(StorageCredentials.huggingFaceToken(null, "team", null, Map.of("token", "inline")))
        .isEqualTo(new Lookup.Found<>(Optional.of("inline")));
    assertThat(StorageCredentials.huggingFaceToken("hf", "team", Map.of("other", "x"), Map.of("token", "inline")))
        .isEqualTo(new Lookup.Found<>(Optional.of("inline")));
    assertThat(StorageCredentials.huggingFaceToken("gone", "team", null, Map.of("token", "inline")))
        .isEqualTo(new Lookup.Found<>(Optional.of("inline")));
  }

  @Test
  void noSecretAndNoTokenMeansAnonymous() {
    assertThat(StorageCredentials.huggingFaceToken(null, "team", null, null))
        .isEqualTo(new Lookup.Found<>(Optional.empty()));
    assertThat(StorageCredentials.huggingFaceToken(" ", "team", null, Map.of("token", " ")))
        .isEqualTo(new Lookup.Found<>(Optional.empty()));
  }

  @Test
  void aNamedSecretThatIsMissingOrLacksTheKeyIsReported() {
    assertThat(StorageCredentials.huggingFaceToken("hf", "team", null, null)).isEqualTo(new Lookup.Missing<>(
        "Secret 'hf' (spec.storage.key) not found in namespace 'team'"));
    assertThat(StorageCredentials.huggingFaceToken("hf", "team", Map.of("tok", "x"), null)).isEqualTo(
        new Lookup.Missing<>("Secret 'hf' in namespace 'team' has no key 'token'"));
    assertThat(StorageCredentials.huggingFaceToken("hf", "ome", Map.of("token", "x"),
        Map.of("secretKey", "HF"))).isEqualTo(new Lookup.Missing<>(
        "Secret 'hf' in namespace 'ome' has no key 'HF' (spec.storage.parameters.secretKey)"));
  }

  @Test
  void s3KeysInEitherSpelling() {
    assertThat(StorageCredentials.s3Keys("s3", "team", Map.of("AWS_ACCESS_KEY_ID", "AK", "AWS_SECRET_ACCESS_KEY",
        "SK", "AWS_SESSION_TOKEN", "ST"))).isEqualTo(new Lookup.Found<>(Optional.of(new S3Keys("AK", "SK",
        Optional.of("ST")))));
    assertThat(StorageCredentials.s3Keys("s3", "team", Map.of("access_key_id", "ak", "secret_access_key", "sk")))
        .isEqualTo(new Lookup.Found<>(Optional.of(new S3Keys("ak", "sk", Optional.empty()))));
    assertThat(StorageCredentials.s3Keys(null, "team", null)).isEqualTo(new Lookup.Found<>(Optional.empty()));
  }

  @Test
  void incompleteS3SecretsAreReportedWithoutValues() {
    Lookup<S3Keys> half = StorageCredentials.s3Keys("s3", "team", Map.of("AWS_ACCESS_KEY_ID", "AKIDSECRET"));
    assertThat(half).isEqualTo(new Lookup.Missing<>("Secret 's3' in namespace 'team' needs the keys "
        + "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or access_key_id and secret_access_key)"));
    assertThat(half.toString()).doesNotContain("AKIDSECRET");
    assertThat(StorageCredentials.s3Keys("s3", "team", null)).isEqualTo(new Lookup.Missing<>(
        "Secret 's3' (spec.storage.key) not found in namespace 'team'"));
    assertThat(new S3Keys("AK", "very-secret", Optional.of("tok")).toString()).doesNotContain("very-secret", "tok");
  }
}
