package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.testsupport.GcsServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link GcsClient} and {@link ResumableDownloader} against a real GCS emulator (fake-gcs-server) on loopback. */
class GcsClientIT {
  private static final String PREFIX = "llama/3b";
  private static final int SMALL_FILES = 23;
  private static final byte[] WEIGHTS = HubClientTest.bytes(2_500_000, 11);
  private static final Map<String, byte[]> UPLOADED = new LinkedHashMap<>();

  @TempDir
  static Path serverDir;
  private static GcsServer server;

  @TempDir
  Path target;

  @BeforeAll
  static void startAndFill() throws IOException {
    server = GcsServer.startOrSkip(serverDir);
    UPLOADED.put("model.safetensors", WEIGHTS);
    UPLOADED.put("config.json", "{\"model_type\":\"llama\"}".getBytes());
    for (int i = 0; i < SMALL_FILES; i++) {
      UPLOADED.put("shards/part-" + i + " (copy)+ü.bin", HubClientTest.bytes(1000 + i, i));
    }
    for (Map.Entry<String, byte[]> e : UPLOADED.entrySet()) {
      server.put(PREFIX, e.getKey(), e.getValue());
    }
    server.put("llama/3b-instruct", "config.json", new byte[] {1}); // shares the prefix's text, not its directory
    server.put("", "other.bin", new byte[] {2});
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void listsEveryObjectUnderThePrefixAcrossPagesWithCrc32c() throws IOException {
    List<RemoteFile> files = new GcsClient(settings(PREFIX).withPageSize(4)).list();
    assertThat(files).as("%d objects, 4 a page", UPLOADED.size()).extracting(RemoteFile::path)
        .containsExactlyInAnyOrderElementsOf(UPLOADED.keySet());
    for (RemoteFile file : files) {
      byte[] content = UPLOADED.get(file.path());
      assertThat(file.size()).isEqualTo(content.length);
      ContentChecksum.Hasher crc = ContentChecksum.Algorithm.CRC32C.newHasher();
      crc.update(content, 0, content.length);
      assertThat(file.expected()).contains(new ContentChecksum(ContentChecksum.Algorithm.CRC32C, crc.hex()));
      assertThat(file.etag()).as("the generation").hasValueSatisfying(g -> assertThat(g).matches("[0-9]+"));
    }
    assertThatThrownBy(() -> new GcsClient(settings(PREFIX).withPageSize(4), 10).list())
        .hasMessage("more than 10 objects under prefix 'llama/3b/' in GCS bucket 'models'; a model may have at most "
            + "10 files (model agent flag --max-listed-objects)");
  }

  @Test
  void downloadsAndResumesAPartialFileVerifyingCrc32c() throws IOException {
    GcsClient gcs = new GcsClient(settings(PREFIX));
    Files.write(target.resolve("model.safetensors.part"), Arrays.copyOf(WEIGHTS, 1_234_567));
    DownloadResult result = new ResumableDownloader().download(gcs, target, p -> { }, () -> false);
    assertThat(result.resumedBytes()).isEqualTo(1_234_567);
    assertThat(result.downloadedFiles()).isEqualTo(UPLOADED.size());
    long total = UPLOADED.values().stream().mapToLong(b -> b.length).sum();
    assertThat(result.downloadedBytes()).isEqualTo(total - 1_234_567);
    for (Map.Entry<String, byte[]> e : UPLOADED.entrySet()) {
      assertThat(Files.readAllBytes(target.resolve(e.getKey()))).as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  @Test
  void aSlowedDownloadCancelledMidwayResumesWhereItStopped() throws Exception {
    server.put("slow", "weights.bin", WEIGHTS);
    GcsClient gcs = new GcsClient(settings("slow"));
    Path part = target.resolve("weights.bin.part");
    AtomicBoolean cancel = new AtomicBoolean();
    server.throttle(400_000);
    try {
      Thread downloader = Thread.ofVirtual().start(() -> {
        assertThatThrownBy(() -> new ResumableDownloader().download(gcs, target, p -> { }, cancel::get))
            .isInstanceOf(FetchException.class);
      });
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while ((!Files.exists(part) || Files.size(part) < 300_000) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      cancel.set(true);
      downloader.join(Duration.ofSeconds(10));
    } finally {
      server.throttle(0);
    }
    long kept = Files.size(part);
    assertThat(kept).isBetween(300_000L, (long) WEIGHTS.length - 1);
    DownloadResult result = new ResumableDownloader().download(gcs, target, p -> { }, () -> false);
    assertThat(result.resumedBytes()).isEqualTo(kept);
    assertThat(Files.readAllBytes(target.resolve("weights.bin"))).isEqualTo(WEIGHTS);
  }

  @Test
  void aFileWhoseBytesDoNotMatchItsCrc32cFailsNamingIt() throws IOException {
    byte[] real = HubClientTest.bytes(5000, 1);
    server.putWithWrongChecksum("tampered", "model.bin", real, HubClientTest.bytes(5000, 2));
    GcsClient gcs = new GcsClient(settings("tampered"));
    assertThatThrownBy(() -> new ResumableDownloader().download(gcs, target, p -> { }, () -> false))
        .isInstanceOf(FetchException.class).hasMessageStartingWith("crc32c mismatch for 'model.bin' from "
            + "gs://models/tampered: expected ")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.INTEGRITY));
    assertThat(target.resolve("model.bin")).doesNotExist();
  }

  @Test
  void anObjectReplacedAfterTheListingIsNotMixedIn() throws IOException {
    server.put("moving", "model.bin", HubClientTest.bytes(4000, 5));
    GcsClient gcs = new GcsClient(settings("moving"));
    RemoteFile listed = gcs.list().getFirst();
    server.put("moving", "model.bin", HubClientTest.bytes(4000, 6));
    assertThatThrownBy(() -> gcs.open(listed, 100)).isInstanceOf(FetchException.class)
        .hasMessageStartingWith("object 'moving/model.bin' generation " + listed.etag().orElseThrow()
            + " not found in GCS bucket 'models' at " + server.endpoint() + ": it was replaced or deleted after the "
            + "listing");
  }

  @Test
  void aServiceAccountsTokenIsObtainedOnceAndARefusedOneIsAccessDenied() throws Exception {
    try (GoogleTokenServer google = new GoogleTokenServer()) {
      GcsAuth auth = new ServiceAccountTokens(ServiceAccountKey.parse(google.keyFile()), Duration.ofSeconds(5));
      GcsClient gcs = new GcsClient(settings(PREFIX).withAuth(auth).withPageSize(10));
      List<RemoteFile> files = gcs.list();
      try (RemoteStream in = gcs.open(files.getFirst(), 0)) {
        assertThat(in.readAllBytes()).isEqualTo(UPLOADED.get(files.getFirst().path()));
      }
      assertThat(google.claims).as("one token for three listing pages and a download").hasSize(1);
      assertThat(google.problems).isEmpty();
      google.refuse = true;
      GcsAuth refused = new ServiceAccountTokens(ServiceAccountKey.parse(google.keyFile()), Duration.ofSeconds(5));
      assertThatThrownBy(() -> new GcsClient(settings(PREFIX).withAuth(refused)).list())
          .hasMessageContaining("refused a token for service account '" + GoogleTokenServer.EMAIL + "'")
          .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
    }
  }

  @Test
  void aMissingBucketOrEmptyPrefixOrMissingObjectIsNamed() {
    assertThatThrownBy(() -> new GcsClient(settings(PREFIX).withLocation("no-such-bucket", PREFIX)).list())
        .hasMessageStartingWith("GCS bucket 'no-such-bucket' at " + server.endpoint() + " does not exist (notFound, "
            + "HTTP 404");
    assertThatThrownBy(() -> new GcsClient(settings("llama/7b")).list())
        .hasMessage("no objects under prefix 'llama/7b/' in GCS bucket 'models' at " + server.endpoint())
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.NOT_FOUND));
    assertThatThrownBy(() -> new GcsClient(settings(PREFIX)).open(RemoteFile.of("missing.bin", 1), 0))
        .hasMessageStartingWith("object 'llama/3b/missing.bin' not found in GCS bucket 'models' at "
            + server.endpoint() + " (HTTP 404");
  }

  private static GcsSettings settings(String prefix) {
    return GcsSettings.of(server.endpoint(), GcsServer.BUCKET, prefix, GcsAuth.anonymous());
  }
}
