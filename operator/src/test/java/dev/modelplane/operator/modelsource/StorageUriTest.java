package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every scheme OME writes, its valid forms and the message a user sees for each malformed one. */
class StorageUriTest {
  private static final String FIELD = "spec.storage.storageUri";

  static Stream<Arguments> validUris() {
    return Stream.of(
        // uri, parsed value, canonical form
        arguments("oci://n/tenancy/b/models/o/meta/llama-3-1-8b",
            new StorageUri.Oci("tenancy", "models", "meta/llama-3-1-8b"), null),
        arguments("oci://n/tenancy/b/models/o/meta/", new StorageUri.Oci("tenancy", "models", "meta/"), null),
        arguments("oci://n/tenancy/b/models/o/", new StorageUri.Oci("tenancy", "models", ""), null),
        arguments("pvc://models/llama/8b", new StorageUri.Pvc(Optional.empty(), "models", "llama/8b"), null),
        arguments("pvc://team-a:models/llama", new StorageUri.Pvc(Optional.of("team-a"), "models", "llama"), null),
        arguments("pvc://shared.cache/x/", new StorageUri.Pvc(Optional.empty(), "shared.cache", "x/"), null),
        arguments("hf://meta-llama/Llama-3.1-8B-Instruct",
            new StorageUri.HuggingFace("meta-llama/Llama-3.1-8B-Instruct", "main"), null),
        arguments("hf://Qwen/Qwen2.5-7B-Instruct@main", new StorageUri.HuggingFace("Qwen/Qwen2.5-7B-Instruct", "main"),
            "hf://Qwen/Qwen2.5-7B-Instruct"),
        arguments("hf://Qwen/Qwen2.5-7B@v1.0", new StorageUri.HuggingFace("Qwen/Qwen2.5-7B", "v1.0"), null),
        arguments("hf://org/model@refs/pr/12", new StorageUri.HuggingFace("org/model", "refs/pr/12"), null),
        arguments("hf://gpt2", new StorageUri.HuggingFace("gpt2", "main"), null),
        arguments("hf://datasets/anon/ShareGPT_Vicuna", new StorageUri.HuggingFace("datasets/anon/ShareGPT_Vicuna",
            "main"), null),
        arguments("s3://bucket/models/llama", new StorageUri.S3("bucket", Optional.empty(), "models/llama"), null),
        arguments("s3://bench@eu-west-1/llama", new StorageUri.S3("bench", Optional.of("eu-west-1"), "llama"), null),
        arguments("s3://bucket", new StorageUri.S3("bucket", Optional.empty(), ""), null),
        arguments("s3://bucket/", new StorageUri.S3("bucket", Optional.empty(), ""), "s3://bucket"),
        arguments("s3://bucket@us-east-2", new StorageUri.S3("bucket", Optional.of("us-east-2"), ""), null),
        arguments("s3://bucket/a@b/c", new StorageUri.S3("bucket", Optional.empty(), "a@b/c"), null),
        arguments("az://acct/container/path/to/blob", new StorageUri.Azure("acct", "container", "path/to/blob"), null),
        arguments("az://acct.blob.core.windows.net/container/blob", new StorageUri.Azure("acct", "container", "blob"),
            "az://acct/container/blob"),
        arguments("az://acct/container", new StorageUri.Azure("acct", "container", ""), null),
        arguments("gs://bucket/path/to/object", new StorageUri.Gcs("bucket", "path/to/object"), null),
        arguments("gs://bucket", new StorageUri.Gcs("bucket", ""), null),
        arguments("github://sgl-project/ome", new StorageUri.GitHub("sgl-project", "ome", "latest"), null),
        arguments("github://sgl-project/ome@v0.1.3", new StorageUri.GitHub("sgl-project", "ome", "v0.1.3"), null),
        arguments("github://o/r@latest", new StorageUri.GitHub("o", "r", "latest"), "github://o/r"),
        arguments("local:///raid/models/llama", new StorageUri.Local("/raid/models/llama"), null),
        arguments("local://./models/llama", new StorageUri.Local("./models/llama"), null),
        arguments("vendor://nvidia/nim/llama-3.1-8b", new StorageUri.Vendor("nvidia", "nim", "llama-3.1-8b"), null),
        arguments("vendor://acme/models/a/b/c", new StorageUri.Vendor("acme", "models", "a/b/c"), null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validUris")
  void parsesAndRoundTrips(String uri, StorageUri expected, String canonical) {
    StorageUri parsed = StorageUri.parse(uri, FIELD);
    assertThat(parsed).isEqualTo(expected);
    assertThat(parsed.toString()).isEqualTo(canonical == null ? uri : canonical);
    assertThat(StorageUri.parse(parsed.toString(), FIELD)).isEqualTo(parsed);
    assertThat(uri).startsWith(parsed.scheme() + "://");
  }

  static Stream<Arguments> invalidUris() {
    String all = "(expected one of oci://, pvc://, hf://, s3://, az://, gs://, github://, local://, vendor://)";
    String oci = "(expected oci://n/{namespace}/b/{bucket}/o/{prefix})";
    String pvc = "(expected pvc://[{namespace}:]{claim}/{subpath})";
    String hf = "(expected hf://{org}/{model}[@branch])";
    String s3 = "(expected s3://{bucket}[@region]/{prefix})";
    String az = "(expected az://{account}/{container}/{blob} or "
        + "az://{account}.blob.core.windows.net/{container}/{blob})";
    String gs = "(expected gs://{bucket}/{object})";
    String gh = "(expected github://{owner}/{repository}[@tag])";
    String local = "(expected local://{path})";
    String vendor = "(expected vendor://{vendor}/{type}/{path})";
    return Stream.of(
        arguments(null, "must not be empty " + all),
        arguments("", "must not be empty " + all),
        arguments("ftp://host/x", "\"ftp://host/x\" has an unknown scheme \"ftp\" " + all),
        arguments("meta-llama/Llama-3.1-8B", "\"meta-llama/Llama-3.1-8B\" has no scheme " + all),
        arguments("HF://org/model", "\"HF://org/model\" has an upper-case scheme; schemes are lower case " + all),
        arguments(" hf://org/model", "\" hf://org/model\" contains whitespace or control characters " + all),
        arguments("hf://org/model\n", "\"hf://org/model\\u000a\" contains whitespace or control characters " + all),
        arguments("hf://org/my model", "\"hf://org/my model\" contains whitespace or control characters " + all),
        arguments("oci://n/ns/b/bucket", "\"oci://n/ns/b/bucket\" does not follow the OCI form " + oci),
        arguments("oci://n/ns/b/bucket/o", "\"oci://n/ns/b/bucket/o\" does not follow the OCI form " + oci),
        arguments("oci://ns/b/bucket/o/x/y", "\"oci://ns/b/bucket/o/x/y\" does not follow the OCI form " + oci),
        arguments("oci://n//b/bucket/o/x", "\"oci://n//b/bucket/o/x\" has an empty namespace " + oci),
        arguments("oci://n/ns/b//o/x", "\"oci://n/ns/b//o/x\" has an empty bucket " + oci),
        arguments("oci://n/ns/b/bk/o/a/../../x",
            "\"oci://n/ns/b/bk/o/a/../../x\" has \"..\" in its prefix, which would leave the directory it names " + oci),
        arguments("oci://n/ns/b/bk/o//x", "\"oci://n/ns/b/bk/o//x\" has an empty segment (\"//\" or a leading or "
            + "trailing '/') in its prefix " + oci),
        arguments("pvc://", "\"pvc://\" has no claim name " + pvc),
        arguments("pvc://models", "\"pvc://models\" has no subpath " + pvc),
        arguments("pvc://models/", "\"pvc://models/\" has no subpath " + pvc),
        arguments("pvc:///x", "\"pvc:///x\" has no claim name " + pvc),
        arguments("pvc://:models/x", "\"pvc://:models/x\" has an empty namespace before ':' " + pvc),
        arguments("pvc://ns:/x", "\"pvc://ns:/x\" has no claim name " + pvc),
        arguments("pvc://a:b:c/x", "\"pvc://a:b:c/x\" has more than one ':' in {namespace}:{claim} " + pvc),
        arguments("pvc://Team_A:models/x", "\"pvc://Team_A:models/x\" has an invalid namespace \"Team_A\" (lower-case "
            + "letters, digits and '-', at most 63, beginning and ending with a letter or digit) " + pvc),
        arguments("pvc://-ns:models/x", "\"pvc://-ns:models/x\" has an invalid namespace \"-ns\" (lower-case "
            + "letters, digits and '-', at most 63, beginning and ending with a letter or digit) " + pvc),
        arguments("pvc://" + "a".repeat(64) + ":m/x", "\"pvc://" + "a".repeat(64) + ":m/x\" has an invalid "
            + "namespace \"" + "a".repeat(64) + "\" (lower-case letters, digits and '-', at most 63, beginning and "
            + "ending with a letter or digit) " + pvc),
        arguments("pvc://Models/x", "\"pvc://Models/x\" has an invalid claim name \"Models\" (lower-case letters, "
            + "digits, '-' and '.', at most 253, beginning and ending with a letter or digit) " + pvc),
        arguments("pvc://models/../etc", "\"pvc://models/../etc\" has \"..\" in its subpath, which would leave the "
            + "directory it names " + pvc),
        arguments("pvc://models//x", "\"pvc://models//x\" has an empty segment (\"//\" or a leading or trailing "
            + "'/') in its subpath " + pvc),
        arguments("hf://", "\"hf://\" has no model id " + hf),
        arguments("hf://@main", "\"hf://@main\" has no model id " + hf),
        arguments("hf://org/model@", "\"hf://org/model@\" has an empty branch after '@' " + hf),
        arguments("hf://org/model@a@b", "\"hf://org/model@a@b\" has more than one '@' " + hf),
        arguments("hf://org/model@../x", "\"hf://org/model@../x\" has \"..\" in its branch, which would leave the "
            + "directory it names " + hf),
        arguments("hf://org//model", "\"hf://org//model\" has an empty segment in its model id " + hf),
        arguments("hf://org/", "\"hf://org/\" has an empty segment in its model id " + hf),
        arguments("hf://a/b/c", "\"hf://a/b/c\" has more than {org}/{model} in its model id " + hf),
        arguments("hf://../model", "\"hf://../model\" has an invalid model id \"../model\" (letters, digits, '-', "
            + "'_' and '.') " + hf),
        arguments("hf://org/mo:del", "\"hf://org/mo:del\" has an invalid model id \"org/mo:del\" (letters, digits, "
            + "'-', '_' and '.') " + hf),
        arguments("s3://", "\"s3://\" has no bucket " + s3),
        arguments("s3:///prefix", "\"s3:///prefix\" has no bucket " + s3),
        arguments("s3://@eu-west-1/x", "\"s3://@eu-west-1/x\" has no bucket " + s3),
        arguments("s3://b@/x", "\"s3://b@/x\" has an empty region after '@' " + s3),
        arguments("s3://b@r@q/x", "\"s3://b@r@q/x\" has more than one '@' " + s3),
        arguments("s3://b/../x", "\"s3://b/../x\" has \"..\" in its prefix, which would leave the directory it "
            + "names " + s3),
        arguments("az://", "\"az://\" has no account " + az),
        arguments("az://acct", "\"az://acct\" has no container " + az),
        arguments("az://acct/", "\"az://acct/\" has no container " + az),
        arguments("az://acct.blob.core.windows.net", "\"az://acct.blob.core.windows.net\" has no container " + az),
        arguments("az://.blob.core.windows.net/c/b", "\"az://.blob.core.windows.net/c/b\" has no account " + az),
        arguments("az://acct//blob", "\"az://acct//blob\" has no container " + az),
        arguments("az://acct/c/a/../../b", "\"az://acct/c/a/../../b\" has \"..\" in its blob path, which would leave "
            + "the directory it names " + az),
        arguments("gs://", "\"gs://\" has no bucket " + gs),
        arguments("gs:///object", "\"gs:///object\" has no bucket " + gs),
        arguments("gs://b/x//y", "\"gs://b/x//y\" has an empty segment (\"//\" or a leading or trailing '/') in its "
            + "object " + gs),
        arguments("github://", "\"github://\" has no owner " + gh),
        arguments("github://owner", "\"github://owner\" has no repository " + gh),
        arguments("github://owner/", "\"github://owner/\" has no repository " + gh),
        arguments("github:///repo", "\"github:///repo\" has no owner " + gh),
        arguments("github://o/r/extra", "\"github://o/r/extra\" has more than {owner}/{repository} " + gh),
        arguments("github://o/r@", "\"github://o/r@\" has an empty tag after '@' " + gh),
        arguments("github://o/..", "\"github://o/..\" has an invalid owner or repository \"..\" (letters, digits, '-', "
            + "'_' and '.') " + gh),
        arguments("local://", "\"local://\" has no path " + local),
        arguments("local:///", "\"local:///\" names the root directory " + local),
        arguments("local:///models/../etc", "\"local:///models/../etc\" has \"..\" in its path, which would leave the "
            + "directory it names " + local),
        arguments("local:////x", "\"local:////x\" has an empty segment (\"//\" or a leading or trailing '/') in its "
            + "path " + local),
        arguments("vendor://", "\"vendor://\" has no vendor " + vendor),
        arguments("vendor://nvidia", "\"vendor://nvidia\" has no resource type " + vendor),
        arguments("vendor://nvidia/nim", "\"vendor://nvidia/nim\" has no resource path " + vendor),
        arguments("vendor://nvidia//x", "\"vendor://nvidia//x\" has no resource type " + vendor),
        arguments("vendor://nvidia/nim/", "\"vendor://nvidia/nim/\" has no resource path " + vendor),
        arguments("vendor://../nim/x", "\"vendor://../nim/x\" has \"..\" as its vendor " + vendor),
        arguments("vendor://v/t/a/../../..", "\"vendor://v/t/a/../../..\" has \"..\" in its resource path, which "
            + "would leave the directory it names " + vendor));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidUris")
  void refusesWithAMessageNamingTheField(String uri, String message) {
    assertThatThrownBy(() -> StorageUri.parse(uri, FIELD))
        .isInstanceOfSatisfying(StorageUriException.class, e -> {
          assertThat(e.field()).isEqualTo(FIELD);
          assertThat(e.uri()).isEqualTo(uri);
        })
        .hasMessage(FIELD + ": " + message);
  }

  @Test
  void theMessageFromTheBriefForAnEmptyHuggingFaceUri() {
    assertThatThrownBy(() -> StorageUri.parse("hf://", "spec.storage.storageUri"))
        .hasMessage("spec.storage.storageUri: \"hf://\" has no model id (expected hf://{org}/{model}[@branch])");
  }

  @Test
  void longUrisAreCutInTheMessage() {
    String uri = "ftp://" + "x".repeat(10_000);
    assertThatThrownBy(() -> StorageUri.parse(uri, "spec.dataset.storageUri"))
        .hasMessageStartingWith("spec.dataset.storageUri: \"ftp://xxx")
        .hasMessageContaining("x…\" has an unknown scheme")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(600));
  }

  @Test
  void everySchemeIsListedOnceAndParses() {
    assertThat(StorageUri.SCHEMES).doesNotHaveDuplicates()
        .containsExactly("oci", "pvc", "hf", "s3", "az", "gs", "github", "local", "vendor");
    Stream.of("oci://n/a/b/c/o/d", "pvc://a/b", "hf://a/b", "s3://a/b", "az://a/b/c", "gs://a/b", "github://a/b",
        "local:///a", "vendor://a/b/c").forEach(uri -> assertThat(StorageUri.SCHEMES)
        .contains(StorageUri.parse(uri, FIELD).scheme()));
  }
}
