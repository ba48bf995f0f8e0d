package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The vectors are the public ones: the SigV4 test suite ("get-vanilla" family, credentials AKIDEXAMPLE) and the S3
 * API reference's signing examples (examplebucket, AKIAIOSFODNN7EXAMPLE, 2013-05-24).
 */
class SigV4SignerTest {
  private static final Instant SUITE_TIME = Instant.parse("2015-08-30T12:36:00Z");
  private static final SigV4Signer SUITE = new SigV4Signer("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
      null, "us-east-1", "service");
  private static final Instant S3_TIME = Instant.parse("2013-05-24T00:00:00Z");
  private static final SigV4Signer S3 = new SigV4Signer("AKIAIOSFODNN7EXAMPLE",
      "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", null, "us-east-1", "s3");
  private static final String S3_HOST = "examplebucket.s3.amazonaws.com";

  @Test
  void getVanilla() {
    Map<String, String> signed = SUITE.sign(suiteGet(List.of()), SUITE_TIME);
    assertThat(signed).containsEntry("x-amz-date", "20150830T123600Z").doesNotContainKey("x-amz-content-sha256");
    assertThat(signed.get("Authorization")).isEqualTo("AWS4-HMAC-SHA256 "
        + "Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, "
        + "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  }

  @Test
  void getVanillaQueryOrderKeyCaseSortsTheQuery() {
    Map<String, String> signed = SUITE.sign(suiteGet(List.of(Map.entry("Param2", "value2"),
        Map.entry("Param1", "value1"))), SUITE_TIME);
    assertThat(signed.get("Authorization"))
        .endsWith("Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
  }

  @Test
  void canonicalRequestOfGetVanilla() {
    SigV4Signer.Request request = suiteGet(List.of());
    Map<String, String> headers = new TreeMap<>(Map.of("host", "example.amazonaws.com",
        "x-amz-date", "20150830T123600Z"));
    assertThat(SUITE.canonicalRequest(request, headers, "host;x-amz-date")).isEqualTo("GET\n/\n\n"
        + "host:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
        + SigV4Signer.EMPTY_SHA256);
  }

  @Test
  void s3GetObjectWithRange() {
    Map<String, String> signed = S3.sign(new SigV4Signer.Request("GET", S3_HOST, "/test.txt", List.of(),
        Map.of("Range", "bytes=0-9"), SigV4Signer.EMPTY_SHA256), S3_TIME);
    assertThat(signed).containsEntry("x-amz-content-sha256", SigV4Signer.EMPTY_SHA256);
    assertThat(signed.get("Authorization")).isEqualTo("AWS4-HMAC-SHA256 "
        + "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
        + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
        + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  }

  @Test
  void s3PutObjectWithAnEscapedKeyAndAPayload() {
    byte[] body = "Welcome to Amazon S3.".getBytes(StandardCharsets.UTF_8);
    Map<String, String> signed = S3.sign(new SigV4Signer.Request("PUT", S3_HOST, "/test$file.text", List.of(),
        Map.of("Date", "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class", "REDUCED_REDUNDANCY"),
        SigV4Signer.sha256Hex(body)), S3_TIME);
    assertThat(signed.get("Authorization")).contains(
        "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class")
        .endsWith("Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  }

  @Test
  void s3GetBucketLifecycleSignsAnEmptyValuedParameter() {
    Map<String, String> signed = S3.sign(new SigV4Signer.Request("GET", S3_HOST, "/",
        List.of(Map.entry("lifecycle", "")), Map.of(), SigV4Signer.EMPTY_SHA256), S3_TIME);
    assertThat(signed.get("Authorization"))
        .endsWith("Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  }

  @Test
  void s3ListObjectsSortsTheQuery() {
    Map<String, String> signed = S3.sign(new SigV4Signer.Request("GET", S3_HOST, "/",
        List.of(Map.entry("prefix", "J"), Map.entry("max-keys", "2")), Map.of(), SigV4Signer.EMPTY_SHA256), S3_TIME);
    assertThat(signed.get("Authorization"))
        .endsWith("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  }

  @Test
  void aSessionTokenIsSentAndSigned() {
    SigV4Signer withToken = new SigV4Signer("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "session-token-value", "us-east-1", "s3");
    Map<String, String> signed = withToken.sign(new SigV4Signer.Request("GET", S3_HOST, "/test.txt", List.of(),
        Map.of(), SigV4Signer.EMPTY_SHA256), S3_TIME);
    assertThat(signed).containsEntry("x-amz-security-token", "session-token-value");
    assertThat(signed.get("Authorization")).contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;"
        + "x-amz-security-token,");
  }

  @Test
  void encodesLikeAwsNotLikeForms() {
    assertThat(SigV4Signer.uriEncode("a b+c*~/d", true)).isEqualTo("a%20b%2Bc%2A~%2Fd");
    assertThat(SigV4Signer.uriEncode("models/llama 3/é.bin", false)).isEqualTo("models/llama%203/%C3%A9.bin");
    assertThat(S3.canonicalPath("/bucket/a b")).isEqualTo("/bucket/a%20b");
    assertThat(SUITE.canonicalPath("/a b")).as("other services encode twice").isEqualTo("/a%2520b");
  }

  @Test
  void neverShowsTheSecret() {
    assertThat(S3.toString()).doesNotContain("wJalrXUtnFEMI").contains("AKIAIOSFODNN7EXAMPLE");
  }

  private static SigV4Signer.Request suiteGet(List<Map.Entry<String, String>> query) {
    return new SigV4Signer.Request("GET", "example.amazonaws.com", "/", query, Map.of(), SigV4Signer.EMPTY_SHA256);
  }
}
