package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.testsupport.OciObjectStorageServer;
import dev.modelplane.testsupport.OciTestKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OciClient} and {@link ResumableDownloader} against the OCI Object Storage test server on loopback. */
class OciClientIT {
  private static final String PREFIX = "llama/3b";
  private static final byte[] WEIGHTS = HubClientTest.bytes(2_500_000, 11);
  private static final Map<String, byte[]> UPLOADED = new LinkedHashMap<>();
  private static OciObjectStorageServer server;

  @TempDir
  Path target;

  @BeforeAll
  static void startAndFill() throws IOException {
    server = OciObjectStorageServer.start();
    UPLOADED.put("model.safetensors", WEIGHTS);
    UPLOADED.put("config.json", "{\"model_type\":\"llama\"}".getBytes());
    UPLOADED.put("tokenizer/名前 ü.json", "{}".getBytes());
    for (int i = 0; i < 13; i++) {
      UPLOADED.put("shards/part-" + i + " (copy)+#?.bin", HubClientTest.bytes(1000 + i, i));
    }
    UPLOADED.forEach((path, data) -> server.put(PREFIX, path, data));
    server.putObject(OciObjectStorageServer.BUCKET, PREFIX + "/", new byte[0]); // a "directory" marker
    server.putObject(OciObjectStorageServer.BUCKET, "llama/3b-instruct/config.json", new byte[] {1});
    server.putObject(OciObjectStorageServer.BUCKET, "other.bin", new byte[] {2});
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void listsEveryObjectUnderThePrefixAcrossPagesWithItsMd5() throws IOException {
    server.requests.clear();
    OciClient oci = new OciClient(settings(PREFIX).withPageSize(4), 1000);
    List<RemoteFile> files = oci.list();
    assertThat(files).extracting(RemoteFile::path).containsExactlyInAnyOrderElementsOf(UPLOADED.keySet());
    for (RemoteFile file : files) {
      assertThat(file.size()).isEqualTo(UPLOADED.get(file.path()).length);
      assertThat(file.etag()).isPresent();
      assertThat(file.checksum()).contains(new ContentChecksum(ContentChecksum.Algorithm.MD5,
          md5Hex(UPLOADED.get(file.path()))));
    }
    assertThat(server.requests).as("17 objects (with the marker), 4 a page").hasSize(5)
        .allMatch(r -> r.startsWith("GET /n/modelplane-test/b/models/o?prefix=llama%2F3b%2F&fields=name%2Csize"));
    RemoteFile head = oci.head("tokenizer/名前 ü.json");
    assertThat(head).isEqualTo(files.stream().filter(f -> f.path().equals("tokenizer/名前 ü.json")).findFirst()
        .orElseThrow());
  }

  @Test
  void aListingLongerThanTheLimitFailsWithoutHoldingIt() {
    assertThatThrownBy(() -> new OciClient(settings(PREFIX).withPageSize(4), 10).list())
        .isInstanceOf(FetchException.class)
        .hasMessage("more than 10 objects under prefix 'llama/3b/' in OCI bucket 'models'; a model may have at "
            + "most 10 files (model agent flag --max-listed-objects)");
  }

  @Test
  void downloadsAndResumesAPartialFileVerifyingMd5() throws IOException {
    OciClient oci = new OciClient(settings(PREFIX), 1000);
    try (RemoteStream in = oci.open(RemoteFile.of("model.safetensors", WEIGHTS.length), 1_000_000)) {
      assertThat(in.startOffset()).isEqualTo(1_000_000);
      assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(WEIGHTS, 1_000_000, WEIGHTS.length));
    }
    Files.write(target.resolve("model.safetensors.part"), Arrays.copyOf(WEIGHTS, 1_234_567));
    DownloadResult result = new ResumableDownloader().download(oci, oci.list(), target, p -> { }, () -> false);
    assertThat(result.resumedBytes()).isEqualTo(1_234_567);
    assertThat(result.downloadedFiles()).isEqualTo(UPLOADED.size());
    for (Map.Entry<String, byte[]> e : UPLOADED.entrySet()) {
      assertThat(Files.readAllBytes(target.resolve(e.getKey()))).as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  @Test
  void aWrongMd5IsAnIntegrityFailureNamingTheFileAndAMultipartOneIsNotChecked() throws IOException {
    byte[] data = HubClientTest.bytes(5000, 3);
    byte[] other = HubClientTest.bytes(5000, 4);
    server.putWithWrongChecksum("bad", "weights.bin", data, other);
    server.putMultipartObject(OciObjectStorageServer.BUCKET, "multi/weights.bin", data, 3);
    OciClient bad = new OciClient(settings("bad"), 1000);
    assertThatThrownBy(() -> new ResumableDownloader().download(bad, bad.list(), target, p -> { }, () -> false))
        .isInstanceOf(FetchException.class).hasMessageContaining("weights.bin").hasMessageContaining("md5")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.INTEGRITY));
    OciClient multi = new OciClient(settings("multi"), 1000);
    assertThat(multi.list()).singleElement().satisfies(f -> assertThat(f.checksum()).isEmpty());
    assertThat(multi.head("weights.bin").checksum()).isEmpty();
    new ResumableDownloader().download(multi, multi.list(), target.resolve("m"), p -> { }, () -> false);
    assertThat(Files.readAllBytes(target.resolve("m/weights.bin"))).isEqualTo(data);
  }

  @Test
  void wrongCredentialsAreDeniedWithoutTheirSecrets() throws IOException {
    OciTestKey stranger = OciTestKey.generate();
    OciSigner wrongKey = new OciSigner(server.key().keyId(), PemKeys.rsaPrivateKey(stranger.privateKeyPem(), null));
    String denied = "OCI bucket 'models' in namespace 'modelplane-test' at " + server.endpoint() + " did not accept "
        + "the request signature: check the tenancy, user, fingerprint and private key (or that the session token "
        + "has not expired) and the clock (NotAuthenticated, HTTP 401)";
    assertThatThrownBy(() -> new OciClient(settings(PREFIX).withSigner(wrongKey), 1000).list())
        .isInstanceOf(FetchException.class).hasMessage(denied)
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
    OciSigner unknown = new OciSigner(stranger.keyId(), PemKeys.rsaPrivateKey(stranger.privateKeyPem(), null));
    assertThatThrownBy(() -> new OciClient(settings(PREFIX).withSigner(unknown), 1000).open(RemoteFile.of(
        "config.json", 1), 0)).hasMessage(denied);
    OciSigner token = new OciSigner(OciSigner.sessionKeyId(OciObjectStorageServer.SESSION_TOKEN),
        PemKeys.rsaPrivateKey(server.key().privateKeyPem(), null));
    assertThat(new OciClient(settings(PREFIX).withSigner(token), 1000).head("config.json").size()).isEqualTo(22);
  }

  @Test
  void aClockMoreThanFiveMinutesOffIsDenied() throws IOException {
    OciClient skewed = new OciClient(settings(PREFIX), new HttpSender(Duration.ofSeconds(10)),
        Clock.offset(Clock.system(ZoneOffset.UTC), Duration.ofMinutes(6)), 1000);
    assertThatThrownBy(skewed::list).hasMessageEndingWith("and the clock (NotAuthenticated, HTTP 401)");
    OciClient close = new OciClient(settings(PREFIX), new HttpSender(Duration.ofSeconds(10)),
        Clock.offset(Clock.system(ZoneOffset.UTC), Duration.ofMinutes(4)), 1000);
    assertThat(close.list()).hasSize(UPLOADED.size());
  }

  @Test
  void aMissingBucketPrefixOrObjectIsNamed() {
    assertThatThrownBy(() -> new OciClient(settings(PREFIX).withLocation("nope", PREFIX), 1000).list())
        .isInstanceOf(FetchException.class).hasMessage("OCI bucket 'nope' in namespace 'modelplane-test' at "
            + server.endpoint() + " does not exist or the credentials may not read it (BucketNotFound, HTTP 404)");
    assertThatThrownBy(() -> new OciClient(settings("llama/7b"), 1000).list())
        .hasMessage("no objects under prefix 'llama/7b/' in OCI bucket 'models' in namespace 'modelplane-test' at "
            + server.endpoint())
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.NOT_FOUND));
    String missing = "object 'llama/3b/missing.bin' not found in OCI bucket 'models' in namespace 'modelplane-test' "
        + "at " + server.endpoint() + " (ObjectNotFound, HTTP 404)";
    assertThatThrownBy(() -> new OciClient(settings(PREFIX), 1000).open(RemoteFile.of("missing.bin", 1), 0))
        .hasMessage(missing);
    assertThatThrownBy(() -> new OciClient(settings(PREFIX), 1000).head("missing.bin")).hasMessage(missing);
  }

  private static OciSettings settings(String prefix) {
    return OciSettings.of(server.endpoint(), OciObjectStorageServer.NAMESPACE, OciObjectStorageServer.BUCKET,
        prefix, new OciSigner(server.key().keyId(), PemKeys.rsaPrivateKey(server.key().privateKeyPem(), null)));
  }

  private static String md5Hex(byte[] data) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(data));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
