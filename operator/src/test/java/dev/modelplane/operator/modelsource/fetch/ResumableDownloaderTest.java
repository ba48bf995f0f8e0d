package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.modelplane.testsupport.FakeHub;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResumableDownloaderTest {
  private static final byte[] CONFIG = HubClientTest.bytes(2_000, 1);
  private static final byte[] WEIGHTS = HubClientTest.bytes(1_000_000, 2);
  private static final byte[] PLAIN = HubClientTest.bytes(500_000, 3);
  private static final DownloadOptions FAST = new DownloadOptions(3, Duration.ofMillis(10), Duration.ofMillis(50),
      Duration.ofSeconds(5), Duration.ZERO);

  @TempDir
  Path dir;
  private FakeHub hub;
  private HubClient client;
  private final List<DownloadProgress> progress = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    hub = new FakeHub().file("config.json", CONFIG, false).file("model.safetensors", WEIGHTS, true)
        .file("sub/plain.bin", PLAIN, false);
    client = new HubClient(new HubSettings(hub.endpoint(), FakeHub.REPO, FakeHub.REVISION, Optional.empty(),
        Duration.ofSeconds(5)));
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  @Test
  void downloadsVerifiesAndReportsProgress() throws IOException {
    DownloadResult result = download(FAST);
    assertFilesInPlace();
    assertThat(result.downloadedFiles()).isEqualTo(3);
    assertThat(result.downloadedBytes()).isEqualTo(CONFIG.length + WEIGHTS.length + PLAIN.length);
    DownloadProgress last = progress.get(progress.size() - 1);
    assertThat(last).isEqualTo(new DownloadProgress(DownloadProgress.Phase.COMPLETED, total(), total(), 3, 3,
        last.speedBytesPerSec()));
    assertThat(progress).extracting(DownloadProgress::completedBytes).isSorted();
    assertThat(progress).anyMatch(p -> p.phase() == DownloadProgress.Phase.DOWNLOADING && p.completedFiles() == 1);
    assertThat(new VerifiedDigests(dir).recorded("model.safetensors")).contains(FakeHub.sha256(WEIGHTS));
    try (var files = Files.walk(dir)) {
      assertThat(files.filter(p -> p.toString().endsWith(".part"))).isEmpty();
    }
  }

  @Test
  void aDroppedConnectionResumesFromThePartialLength() throws IOException {
    hub.dropAfter = 300_000;
    hub.faults("model.safetensors", FakeHub.Fault.DROP_MIDWAY);
    DownloadResult result = download(FAST);
    assertFilesInPlace();
    List<FakeHub.Seen> cdn = hub.fileRequests("model.safetensors").stream()
        .filter(r -> r.server().equals("cdn")).toList();
    assertThat(cdn).hasSize(2);
    assertThat(cdn.get(0).range()).isNull();
    long resumedAt = Long.parseLong(cdn.get(1).range().replaceAll("bytes=(\\d+)-", "$1"));
    assertThat(resumedAt).as("the second request starts where the part ended").isPositive().isLessThanOrEqualTo(
        300_000);
    assertThat(result.downloadedBytes()).as("no byte is fetched twice")
        .isEqualTo(CONFIG.length + WEIGHTS.length + PLAIN.length);
  }

  @Test
  void aPartLeftByAnEarlierRunIsHashedAndContinued() throws IOException {
    Files.write(dir.resolve("model.safetensors.part"), Arrays.copyOf(WEIGHTS, 123_456));
    DownloadResult result = download(FAST);
    assertFilesInPlace();
    assertThat(hub.fileRequests("model.safetensors")).extracting(FakeHub.Seen::range)
        .containsOnly("bytes=123456-");
    assertThat(result.resumedBytes()).isEqualTo(123_456);
    assertThat(result.downloadedBytes()).isEqualTo(total() - 123_456);
    assertThat(progress).anyMatch(p -> p.phase() == DownloadProgress.Phase.VERIFYING);
  }

  @Test
  void aServerThatIgnoresRangeRestartsTheFileCleanly() throws IOException {
    hub.ignoreRange = true;
    Files.createDirectories(dir.resolve("sub"));
    Files.write(dir.resolve("sub/plain.bin.part"), Arrays.copyOf(PLAIN, 200_000));
    Files.write(dir.resolve("model.safetensors.part"), Arrays.copyOf(WEIGHTS, 10));
    DownloadResult result = download(FAST);
    assertFilesInPlace();
    assertThat(hub.fileRequests("sub/plain.bin")).extracting(FakeHub.Seen::range).containsExactly("bytes=200000-");
    assertThat(result.resumedBytes()).isZero();
    assertThat(result.downloadedBytes()).isEqualTo(total());
  }

  @Test
  void aCorruptFileIsDeletedAndNamedWithBothDigests() {
    byte[] corrupt = WEIGHTS.clone();
    corrupt[500_000] ^= 1;
    hub.serveInstead("model.safetensors", corrupt);
    assertThatThrownBy(() -> download(FAST)).isInstanceOf(FetchException.class)
        .hasMessage("sha256 mismatch for 'model.safetensors' from hf://org/model@main: expected "
            + FakeHub.sha256(WEIGHTS) + ", got " + FakeHub.sha256(corrupt) + " (the partial file was deleted)")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.INTEGRITY));
    assertThat(dir.resolve("model.safetensors")).doesNotExist();
    assertThat(dir.resolve("model.safetensors.part")).doesNotExist();
    assertThat(progress.get(progress.size() - 1).phase()).isEqualTo(DownloadProgress.Phase.FAILED);
  }

  @Test
  void moreBytesThanListedIsASizeMismatch() {
    hub.faults("config.json", FakeHub.Fault.EXTRA_BYTES);
    assertThatThrownBy(() -> download(FAST)).isInstanceOf(FetchException.class)
        .hasMessageMatching("size mismatch for 'config\\.json' from hf://org/model@main: expected 2000 bytes, "
            + "got at least 20(0[1-9]|10) \\(the partial file was deleted\\)");
    assertThat(dir.resolve("config.json.part")).doesNotExist();
  }

  @Test
  void completeFilesAreSkippedAndTheSidecarSavesTheRehash() throws IOException {
    download(FAST);
    int before = hub.requests.size();
    progress.clear();
    DownloadResult again = download(FAST);
    assertThat(again.skippedFiles()).isEqualTo(3);
    assertThat(again.downloadedBytes()).isZero();
    assertThat(hub.requests.subList(before, hub.requests.size())).as("only the listing is asked again")
        .noneMatch(r -> r.path().contains("/resolve/") || r.server().equals("cdn"));
    assertThat(progress).noneMatch(p -> p.phase() == DownloadProgress.Phase.VERIFYING);

    Files.delete(dir.resolve(".modelplane-fetch/model.safetensors.sha256"));
    progress.clear();
    assertThat(download(FAST).skippedFiles()).isEqualTo(3);
    assertThat(progress).as("without the sidecar the file is hashed once more")
        .anyMatch(p -> p.phase() == DownloadProgress.Phase.VERIFYING);
  }

  @Test
  void aStaleFileOfTheRightSizeIsReplaced() throws IOException {
    byte[] stale = WEIGHTS.clone();
    stale[0] ^= 1;
    Files.write(dir.resolve("model.safetensors"), stale);
    DownloadResult result = download(FAST);
    assertFilesInPlace();
    assertThat(result.downloadedFiles()).isEqualTo(3);
  }

  @Test
  void transientErrorsAreRetriedThenGiveUp() throws IOException {
    hub.failNext(2, 503);
    download(FAST);
    assertFilesInPlace();

    Path other = dir.resolve("other");
    List<RemoteFile> files = client.list();
    hub.failNext(1000, 503);
    int before = hub.requests.size();
    assertThatThrownBy(() -> new ResumableDownloader(FAST).download(client, files, other, p -> { }, () -> false))
        .isInstanceOf(FetchException.class)
        .hasMessageStartingWith("Hugging Face endpoint " + hub.endpoint() + " failed with HTTP 503 while "
            + "downloading 'config.json'")
        .hasMessageEndingWith("(gave up on 'config.json' after 3 attempts; 0 bytes kept in its .part for a later "
            + "resume)");
    assertThat(hub.requests.size() - before).isEqualTo(3);
  }

  @Test
  void accessDeniedIsNotRetried() {
    hub.token = "hf_required";
    int before = hub.requests.size();
    List<RemoteFile> files = List.of(RemoteFile.of("config.json", CONFIG.length));
    assertThatThrownBy(() -> new ResumableDownloader(FAST).download(client, files, dir, p -> { }, () -> false))
        .hasMessageContaining("token missing or not allowed");
    assertThat(hub.requests.size() - before).as("revision asked once, no retry").isEqualTo(1);
  }

  @Test
  void aStalledTransferIsAbortedAndResumed() throws IOException {
    hub.dropAfter = 100_000;
    hub.stallMillis = 5_000;
    hub.faults("sub/plain.bin", FakeHub.Fault.STALL);
    DownloadOptions stallQuickly = new DownloadOptions(3, Duration.ofMillis(10), Duration.ofMillis(50),
        Duration.ofMillis(500), Duration.ZERO);
    long start = System.nanoTime();
    download(stallQuickly);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    assertFilesInPlace();
    assertThat(hub.fileRequests("sub/plain.bin")).extracting(FakeHub.Seen::range)
        .containsExactly(null, "bytes=100000-");
  }

  @Test
  void cancellingStopsABlockedReadPromptlyAndKeepsThePart() throws Exception {
    hub.dropAfter = 250_000;
    hub.stallMillis = 20_000;
    hub.faults("model.safetensors", FakeHub.Fault.STALL);
    AtomicBoolean cancel = new AtomicBoolean();
    ExecutorService runner = Executors.newSingleThreadExecutor();
    try {
      Future<DownloadResult> running = runner.submit(() -> new ResumableDownloader(FAST)
          .download(client, client.list(), dir, progress::add, cancel::get));
      Path part = dir.resolve("model.safetensors.part");
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
          .until(() -> Files.exists(part) && Files.size(part) >= 250_000);
      long cancelledAt = System.nanoTime();
      cancel.set(true);
      assertThatThrownBy(() -> running.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(FetchException.class)
          .cause().hasMessage("download cancelled during 'model.safetensors'; its .part is kept for a resume");
      assertThat(Duration.ofNanos(System.nanoTime() - cancelledAt)).isLessThan(Duration.ofSeconds(2));
      assertThat(Files.size(part)).isEqualTo(250_000);
      assertThat(progress.get(progress.size() - 1).phase()).isEqualTo(DownloadProgress.Phase.CANCELLED);
    } finally {
      runner.shutdownNow();
    }
    progress.clear();
    DownloadResult resumed = download(FAST);
    assertFilesInPlace();
    assertThat(resumed.resumedBytes()).isEqualTo(250_000);
  }

  @Test
  void interruptingTheThreadCancels() throws Exception {
    hub.dropAfter = 1000;
    hub.stallMillis = 20_000;
    hub.faults("config.json", FakeHub.Fault.STALL);
    ExecutorService runner = Executors.newSingleThreadExecutor();
    try {
      Future<DownloadResult> running = runner.submit(() -> new ResumableDownloader(FAST)
          .download(client, client.list(), dir, progress::add, () -> false));
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
          .until(() -> Files.exists(dir.resolve("config.json.part")));
      Thread.sleep(100);
      running.cancel(true);
      runner.shutdown();
      assertThat(runner.awaitTermination(2, TimeUnit.SECONDS)).as("the download thread stops").isTrue();
      assertThat(progress.get(progress.size() - 1).phase()).isEqualTo(DownloadProgress.Phase.CANCELLED);
    } finally {
      runner.shutdownNow();
    }
  }

  @Test
  void pathTraversalIsRefusedBeforeAnythingIsWritten() {
    for (String[] bad : new String[][] {
        {"../evil", "climbs out of the model directory with '..'"},
        {"a/../../evil", "climbs out of the model directory with '..'"},
        {"/etc/passwd", "is absolute"},
        {"C:/windows", "is absolute"},
        {"a\\b", "contains a backslash"},
        {"a//b", "has an empty or '.' path segment"},
        {"./a", "has an empty or '.' path segment"},
        {"", "is empty"},
        {"a\nb", "contains a control character"},
        {".modelplane-fetch/x.sha256", "is inside the downloader's own .modelplane-fetch directory"}}) {
      List<RemoteFile> files = List.of(RemoteFile.of("config.json", CONFIG.length), RemoteFile.of(bad[0], 1));
      assertThatThrownBy(() -> new ResumableDownloader(FAST).download(client, files, dir, p -> { }, () -> false))
          .isInstanceOf(FetchException.class)
          .hasMessage("hf://org/model@main lists a file named '" + bad[0].replace("\n", "\\x0a") + "', which "
              + bad[1] + "; refused");
    }
    assertThat(dir.resolve("config.json")).doesNotExist();
    assertThat(hub.requests).isEmpty();
  }

  @Test
  void duplicateAndCollidingNamesAreRefused() {
    List<RemoteFile> twice = List.of(RemoteFile.of("a", 1), RemoteFile.of("a", 1));
    assertThatThrownBy(() -> new ResumableDownloader(FAST).download(client, twice, dir, p -> { }, () -> false))
        .hasMessage("hf://org/model@main lists 'a' twice");
    List<RemoteFile> colliding = List.of(RemoteFile.of("a", 1), RemoteFile.of("a.part", 1));
    assertThatThrownBy(() -> new ResumableDownloader(FAST).download(client, colliding, dir, p -> { }, () -> false))
        .hasMessage("hf://org/model@main lists both 'a.part' and the file whose partial download it would be; "
            + "refused");
  }

  @Test
  void optionsAndRemoteFilesRejectBadValues() {
    assertThatThrownBy(() -> new DownloadOptions(0, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1),
        Duration.ZERO)).hasMessage("maxAttempts must be 1 to 100, got 0");
    assertThatThrownBy(() -> new DownloadOptions(1, Duration.ofSeconds(2), Duration.ofSeconds(1),
        Duration.ofSeconds(1), Duration.ZERO)).hasMessage("backoff must be 0 <= initial <= max, got PT2S and PT1S");
    assertThatThrownBy(() -> new DownloadOptions(1, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO))
        .hasMessage("stallTimeout must be positive and progressInterval not negative, got PT0S and PT0S");
    assertThatThrownBy(() -> new RemoteFile("a", -1, Optional.empty(), Optional.empty()))
        .hasMessage("size of a is negative: -1");
    assertThatThrownBy(() -> new RemoteFile("a", 1, Optional.of("abc"), Optional.empty()))
        .hasMessage("not a SHA-256 in hex: 'abc'");
    assertThat(FAST.backoff(2)).isEqualTo(Duration.ofMillis(10));
    assertThat(FAST.backoff(3)).isEqualTo(Duration.ofMillis(20));
    assertThat(FAST.backoff(30)).isEqualTo(Duration.ofMillis(50));
  }

  private DownloadResult download(DownloadOptions options) throws IOException {
    return new ResumableDownloader(options).download(client, dir, progress::add, () -> false);
  }

  private void assertFilesInPlace() throws IOException {
    assertThat(Files.readAllBytes(dir.resolve("config.json"))).isEqualTo(CONFIG);
    assertThat(Files.readAllBytes(dir.resolve("model.safetensors"))).isEqualTo(WEIGHTS);
    assertThat(Files.readAllBytes(dir.resolve("sub/plain.bin"))).isEqualTo(PLAIN);
    assertThat(dir.resolve("model.safetensors.part")).doesNotExist();
  }

  private static long total() {
    return CONFIG.length + WEIGHTS.length + PLAIN.length;
  }
}
