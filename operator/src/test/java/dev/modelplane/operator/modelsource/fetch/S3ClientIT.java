package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.testsupport.S3Server;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link S3Client} and {@link ResumableDownloader} against a real S3-compatible server (versitygw) on loopback. */
class S3ClientIT {
  private static final String BUCKET = "models";
  private static final String PREFIX = "llama/3b";
  private static final int SMALL_FILES = 23;
  private static final byte[] WEIGHTS = HubClientTest.bytes(2_500_000, 11);

  @TempDir
  static Path serverDir;
  private static S3Server server;
  private static final Map<String, byte[]> UPLOADED = new LinkedHashMap<>();

  @TempDir
  Path target;

  @BeforeAll
  static void startAndFill() throws IOException {
    server = S3Server.startOrSkip(serverDir);
    S3Client admin = client(PREFIX);
    expect(admin.send("PUT", "/" + BUCKET, List.of(), Map.of()), 200);
    UPLOADED.put("model.safetensors", WEIGHTS);
    UPLOADED.put("config.json", "{\"model_type\":\"llama\"}".getBytes());
    for (int i = 0; i < SMALL_FILES; i++) {
      UPLOADED.put("shards/part-" + i + " (copy).bin", HubClientTest.bytes(1000 + i, i));
    }
    for (Map.Entry<String, byte[]> e : UPLOADED.entrySet()) {
      put(PREFIX + "/" + e.getKey(), e.getValue());
    }
    put("llama/3b-instruct/config.json", new byte[] {1}); // shares the prefix's text but not its directory
    put("other.bin", new byte[] {2});
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void listsEveryObjectUnderThePrefixAcrossPages() throws IOException {
    S3Client s3 = new S3Client(settings(PREFIX).withPageSize(4));
    List<RemoteFile> files = s3.list();
    assertThat(files).as("%d objects, 4 a page", UPLOADED.size()).extracting(RemoteFile::path)
        .containsExactlyInAnyOrderElementsOf(UPLOADED.keySet());
    for (RemoteFile file : files) {
      assertThat(file.size()).isEqualTo(UPLOADED.get(file.path()).length);
      assertThat(file.etag()).isPresent();
      assertThat(file.sha256()).isEmpty();
    }
    assertThat(s3.revision()).isEmpty();
    RemoteFile head = s3.head("model.safetensors");
    assertThat(head.size()).isEqualTo(WEIGHTS.length);
    assertThat(head.etag()).isEqualTo(files.stream().filter(f -> f.path().equals("model.safetensors")).findFirst()
        .orElseThrow().etag());
  }

  @Test
  void aListingLongerThanTheLimitFailsWithoutHoldingIt() {
    S3Client s3 = new S3Client(settings(PREFIX).withPageSize(4), 10);
    assertThatThrownBy(s3::list).isInstanceOf(FetchException.class)
        .hasMessage("more than 10 objects under prefix 'llama/3b/' in S3 bucket 'models'; a model may have at most "
            + "10 files (model agent flag --max-listed-objects)")
        .extracting(e -> ((FetchException) e).kind()).isEqualTo(FetchException.Kind.INVALID);
  }

  @Test
  void readsARangeFromAnOffset() throws IOException {
    S3Client s3 = client(PREFIX);
    try (RemoteStream in = s3.open(RemoteFile.of("model.safetensors", WEIGHTS.length), 1_000_000)) {
      assertThat(in.startOffset()).isEqualTo(1_000_000);
      assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(WEIGHTS, 1_000_000, WEIGHTS.length));
    }
  }

  @Test
  void downloadsAndResumesAPartialFile() throws IOException {
    S3Client s3 = client(PREFIX);
    Files.write(target.resolve("model.safetensors.part"), Arrays.copyOf(WEIGHTS, 1_234_567));
    List<RemoteFile> files = s3.list().stream().map(f -> f.path().equals("model.safetensors")
        ? new RemoteFile(f.path(), f.size(), Optional.of(SigV4Signer.sha256Hex(WEIGHTS)), f.etag()) : f).toList();
    DownloadResult result = new ResumableDownloader().download(s3, files, target, p -> { }, () -> false);
    assertThat(result.resumedBytes()).isEqualTo(1_234_567);
    assertThat(result.downloadedFiles()).isEqualTo(UPLOADED.size());
    long total = UPLOADED.values().stream().mapToLong(b -> b.length).sum();
    assertThat(result.downloadedBytes()).isEqualTo(total - 1_234_567);
    for (Map.Entry<String, byte[]> e : UPLOADED.entrySet()) {
      assertThat(Files.readAllBytes(target.resolve(e.getKey()))).as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  @Test
  void aWrongSecretIsASignatureErrorWithoutTheSecret() {
    String wrong = "not-the-secret-at-all";
    S3Client s3 = new S3Client(settings(PREFIX).withCredentials(S3Server.ACCESS_KEY, wrong));
    assertThatThrownBy(s3::list).isInstanceOf(FetchException.class)
        .hasMessage("S3 bucket 'models' at " + server.endpoint() + " rejected the request signature: the secret key "
            + "does not match access key '" + S3Server.ACCESS_KEY + "' (SignatureDoesNotMatch, HTTP 403)")
        .hasMessageNotContaining(wrong).hasMessageNotContaining(S3Server.SECRET_KEY)
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
  }

  @Test
  void anUnknownAccessKeyIsNamed() {
    S3Client s3 = new S3Client(settings(PREFIX).withCredentials("nobody", S3Server.SECRET_KEY));
    assertThatThrownBy(s3::list).isInstanceOf(FetchException.class)
        .hasMessageStartingWith("S3 bucket 'models' at " + server.endpoint() + " does not know access key 'nobody'")
        .hasMessageNotContaining(S3Server.SECRET_KEY);
  }

  @Test
  void aMissingBucketOrEmptyPrefixOrMissingKeyIsNamed() {
    assertThatThrownBy(() -> new S3Client(settings(PREFIX).withLocation("no-such-bucket", PREFIX)).list())
        .isInstanceOf(FetchException.class)
        .hasMessage("S3 bucket 'no-such-bucket' at " + server.endpoint() + " does not exist (NoSuchBucket, HTTP 404)");
    assertThatThrownBy(() -> client("llama/7b").list()).isInstanceOf(FetchException.class)
        .hasMessage("no objects under prefix 'llama/7b/' in S3 bucket 'models' at " + server.endpoint())
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.NOT_FOUND));
    assertThatThrownBy(() -> client(PREFIX).open(RemoteFile.of("missing.bin", 1), 0))
        .hasMessage("object 'llama/3b/missing.bin' not found in S3 bucket 'models' at " + server.endpoint()
            + " (NoSuchKey, HTTP 404)");
    assertThatThrownBy(() -> client(PREFIX).head("missing.bin"))
        .hasMessage("object 'llama/3b/missing.bin' not found in S3 bucket 'models' at " + server.endpoint()
            + " (NoSuchKey, HTTP 404)");
  }

  private static S3Settings settings(String prefix) {
    return S3Settings.of(server.endpoint(), BUCKET, prefix, S3Server.ACCESS_KEY, S3Server.SECRET_KEY);
  }

  private static S3Client client(String prefix) {
    return new S3Client(settings(prefix));
  }

  /** A signed PUT of one object (tests only: the client itself never writes). */
  private static void put(String key, byte[] content) throws IOException {
    expect(client(PREFIX).send("PUT", "/" + BUCKET + "/" + key, List.of(), Map.of(), content), 200);
  }

  private static void expect(HttpResponse<InputStream> response, int status) throws IOException {
    String body = HttpSender.readSmall(response);
    assertThat(response.statusCode()).as(body).isEqualTo(status);
  }
}
