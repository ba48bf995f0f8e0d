package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.testsupport.OciSignerCheck;
import dev.modelplane.testsupport.OciTestKey;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OciSigner} byte for byte against the official OCI Go SDK's {@code DefaultRequestSigner}
 * ({@code hack/oci-signer-check}): RSA PKCS#1 v1.5 signatures are deterministic, so every header must be equal.
 */
class OciSignerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant WHEN = Instant.parse("2026-01-02T03:04:05Z");
  private static final String OBJECT = "llama/3b/shards/part 1 (copy) – ü+ß#?.bin";

  /** One request to sign: what both signers see. */
  private record Req(String method, String url, Map<String, String> headers, byte[] body) {
  }

  private static final List<Req> REQUESTS = List.of(
      new Req("GET", "http://127.0.0.1:8080/n/ns/b/models/o?prefix=llama%2F3b%2F&fields=name%2Csize%2Cmd5%2Cetag"
          + "&limit=4&start=llama%2F3b%2Fshards%2Fpart%201", Map.of(), new byte[0]),
      new Req("HEAD", "http://127.0.0.1:8080/n/ns/b/models/o/" + SigV4Signer.uriEncode(OBJECT, true), Map.of(),
          new byte[0]),
      new Req("GET", "https://objectstorage.eu-frankfurt-1.oraclecloud.com/n/ns/b/models/o/"
          + SigV4Signer.uriEncode(OBJECT, true), Map.of("Range", "bytes=1000-"), new byte[0]),
      new Req("GET", "https://objectstorage.us-ashburn-1.oraclecloud.com:443/n/ns/b/models/o/%E6%A8%A1%E5%9E%8B",
          Map.of(), new byte[0]),
      new Req("PUT", "http://127.0.0.1:8080/n/ns/b/models/o/" + SigV4Signer.uriEncode("a b/c.bin", true),
          Map.of("Content-Type", "application/octet-stream"), "some weights\n".getBytes(StandardCharsets.UTF_8)),
      new Req("PUT", "http://127.0.0.1:8080/n/ns/b/models/o/empty", Map.of("Content-Type", "text/plain"),
          new byte[0]),
      new Req("POST", "https://auth.eu-frankfurt-1.oraclecloud.com/v1/x509", Map.of("Content-Type",
          "application/json"), "{\"certificate\":\"x\"}".getBytes(StandardCharsets.UTF_8)),
      new Req("DELETE", "http://[::1]:9000/n/ns/b/models/o/x", Map.of(), new byte[0]));

  @Test
  void apiKeySignaturesEqualTheSdks() throws Exception {
    Path binary = OciSignerCheck.requireOrSkip();
    OciTestKey key = OciTestKey.generate();
    OciSigner ours = new OciSigner(key.keyId(), PemKeys.rsaPrivateKey(key.privateKeyPem(), null));
    ObjectNode input = input(key.privateKeyPem());
    input.put("tenancy", key.tenancy()).put("user", key.user()).put("fingerprint", key.fingerprint());
    compare(binary, input, ours);
  }

  @Test
  void sessionTokenSignaturesEqualTheSdks() throws Exception {
    Path binary = OciSignerCheck.requireOrSkip();
    OciTestKey key = OciTestKey.generate();
    String token = "eyJraWQiOiJhc3cifQ.eyJzdWIiOiJvY2lkMS51c2VyIn0.c2lnbmF0dXJl";
    OciSigner ours = new OciSigner(OciSigner.sessionKeyId(token), PemKeys.rsaPrivateKey(key.privateKeyPem(), null));
    ObjectNode input = input(key.privateKeyPem());
    input.put("securityToken", token);
    compare(binary, input, ours);
  }

  @Test
  void passphraseEncryptedKeysAsOpenSslWritesThemSignAsTheSdk(@TempDir Path dir) throws Exception {
    Path binary = OciSignerCheck.requireOrSkip();
    Assumptions.assumeTrue(openssl(dir, "version"), "openssl is not installed");
    String pass = "correct horse";
    assertThat(openssl(dir, "genrsa", "-out", "plain.pem", "2048")).isTrue();
    assertThat(openssl(dir, "rsa", "-in", "plain.pem", "-aes128", "-traditional", "-passout", "pass:" + pass,
        "-out", "legacy.pem")).isTrue();
    assertThat(openssl(dir, "pkcs8", "-topk8", "-in", "plain.pem", "-v2", "aes-256-cbc", "-passout",
        "pass:" + pass, "-out", "pkcs8.pem")).isTrue();
    for (String file : List.of("legacy.pem", "pkcs8.pem")) {
      String pem = Files.readString(dir.resolve(file));
      assertThat(pem).contains(file.equals("legacy.pem") ? "DEK-Info: AES-128-CBC" : "ENCRYPTED PRIVATE KEY");
      PrivateKey key = PemKeys.rsaPrivateKey(pem, pass);
      assertThat(key.getEncoded()).as(file).isEqualTo(PemKeys.rsaPrivateKey(Files.readString(dir.resolve(
          "plain.pem")), null).getEncoded());
      assertThatThrownBy(() -> PemKeys.rsaPrivateKey(pem, "not-it-at-all")).as(file)
          .hasMessageStartingWith("cannot read the private key (wrong passphrase?)")
          .hasMessageNotContaining("not-it-at-all");
      assertThatThrownBy(() -> PemKeys.rsaPrivateKey(pem, null)).as(file)
          .hasMessage("the private key is encrypted and no passphrase is given");
      ObjectNode input = input(pem);
      input.put("passphrase", pass).put("tenancy", "ocid1.tenancy.oc1..t").put("user", "ocid1.user.oc1..u")
          .put("fingerprint", PemKeys.fingerprint(key));
      compare(binary, input, new OciSigner(OciSigner.apiKeyId("ocid1.tenancy.oc1..t", "ocid1.user.oc1..u",
          PemKeys.fingerprint(key)), key));
    }
  }

  private static boolean openssl(Path dir, String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("openssl"));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  @Test
  void theFingerprintIsTheConsoles() {
    OciTestKey key = OciTestKey.generate();
    assertThat(PemKeys.fingerprint(PemKeys.rsaPrivateKey(key.privateKeyPem(), null))).isEqualTo(key.fingerprint())
        .matches("([0-9a-f]{2}:){15}[0-9a-f]{2}");
  }

  @Test
  void theDateHasATwoDigitDay() {
    assertThat(new OciSigner("k", PemKeys.rsaPrivateKey(OciTestKey.generate().privateKeyPem(), null))
        .sign("GET", URI.create("http://h/x"), Map.of(), new byte[0], WHEN))
        .containsEntry("date", "Fri, 02 Jan 2026 03:04:05 GMT");
  }

  private static ObjectNode input(String pem) {
    ObjectNode input = JSON.createObjectNode();
    input.put("key", pem);
    ArrayNode requests = input.putArray("requests");
    for (Req r : REQUESTS) {
      ObjectNode node = requests.addObject();
      node.put("method", r.method()).put("url", r.url()).put("date", OciSigner.DATE.format(WHEN))
          .put("body", Base64.getEncoder().encodeToString(r.body()));
      ObjectNode headers = node.putObject("headers");
      r.headers().forEach(headers::put);
    }
    return input;
  }

  static void compare(Path binary, ObjectNode input, OciSigner ours) throws Exception {
    JsonNode sdk = JSON.readTree(OciSignerCheck.run(binary, JSON.writeValueAsString(input)));
    assertThat(sdk.size()).isEqualTo(REQUESTS.size());
    for (int i = 0; i < REQUESTS.size(); i++) {
      Req r = REQUESTS.get(i);
      Map<String, String> headers = new LinkedHashMap<>(r.headers());
      headers.put("Date", OciSigner.DATE.format(WHEN));
      Map<String, String> signed = ours.sign(r.method(), URI.create(r.url()), headers, r.body(), WHEN);
      JsonNode theirs = sdk.get(i);
      String what = r.method() + " " + r.url();
      assertThat(signed.get("authorization")).as(what).isEqualTo(theirs.path("authorization").asText())
          .startsWith("Signature version=\"1\",headers=\"date (request-target) host");
      for (String name : List.of("x-content-sha256", "content-length")) {
        assertThat(signed.get(name)).as(what + " " + name).isEqualTo(theirs.hasNonNull(name)
            ? theirs.get(name).asText() : null);
      }
    }
  }
}
