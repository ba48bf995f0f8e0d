package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The downloader verifies the checksum each store announces (MD5, CRC32C), on a fresh download and on a resume. */
class StoreChecksumDownloadTest {
  private static final DownloadOptions FAST = new DownloadOptions(2, Duration.ofMillis(1), Duration.ofMillis(5),
      Duration.ofSeconds(5), Duration.ZERO);
  private static final byte[] WEIGHTS = HubClientTest.bytes(300_000, 7);

  @TempDir
  Path dir;

  /** An in-memory store that announces {@code announced} for each file and serves {@code served}. */
  private static final class Store implements ModelFileSource {
    final Map<String, byte[]> served = new LinkedHashMap<>();
    final Map<String, ContentChecksum> announced = new LinkedHashMap<>();
    final List<Long> offsets = new ArrayList<>();

    @Override
    public List<RemoteFile> list() {
      return served.entrySet().stream().map(e -> RemoteFile.withChecksum(e.getKey(), e.getValue().length,
          Optional.empty(), Optional.ofNullable(announced.get(e.getKey())))).toList();
    }

    @Override
    public RemoteStream open(RemoteFile file, long offset) {
      offsets.add(offset);
      byte[] data = served.get(file.path());
      return new RemoteStream(new ByteArrayInputStream(data, (int) offset, data.length - (int) offset), offset);
    }

    @Override
    public Optional<String> revision() {
      return Optional.empty();
    }

    @Override
    public String describe() {
      return "mem://store";
    }
  }

  private static ContentChecksum of(ContentChecksum.Algorithm algorithm, byte[] data) {
    ContentChecksum.Hasher hasher = algorithm.newHasher();
    hasher.update(data, 0, data.length);
    return new ContentChecksum(algorithm, hasher.hex());
  }

  private void download(Store store) throws IOException {
    new ResumableDownloader(FAST).download(store, dir, p -> { }, () -> false);
  }

  @Test
  void aResumedFileIsVerifiedWithItsStoresCrc32c() throws IOException {
    Store store = new Store();
    store.served.put("w.bin", WEIGHTS);
    store.announced.put("w.bin", of(ContentChecksum.Algorithm.CRC32C, WEIGHTS));
    Files.write(dir.resolve("w.bin.part"), Arrays.copyOf(WEIGHTS, 100_000));
    download(store);
    assertThat(store.offsets).containsExactly(100_000L);
    assertThat(Files.readAllBytes(dir.resolve("w.bin"))).isEqualTo(WEIGHTS);
    assertThat(new VerifiedDigests(dir).recorded("w.bin")).contains(of(ContentChecksum.Algorithm.CRC32C, WEIGHTS)
        .hex());
    download(store); // complete and recorded: nothing is fetched again
    assertThat(store.offsets).hasSize(1);
  }

  @Test
  void anMd5MismatchFailsNamingTheFileAndBothValues() {
    byte[] corrupt = WEIGHTS.clone();
    corrupt[1] ^= 1;
    Store store = new Store();
    store.served.put("w.bin", corrupt);
    store.announced.put("w.bin", of(ContentChecksum.Algorithm.MD5, WEIGHTS));
    assertThatThrownBy(() -> download(store)).isInstanceOf(FetchException.class)
        .hasMessage("md5 mismatch for 'w.bin' from mem://store: expected " + of(ContentChecksum.Algorithm.MD5,
            WEIGHTS).hex() + ", got " + of(ContentChecksum.Algorithm.MD5, corrupt).hex()
            + " (the partial file was deleted)")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.INTEGRITY));
    assertThat(dir.resolve("w.bin")).doesNotExist();
    assertThat(dir.resolve("w.bin.part")).doesNotExist();
  }

  @Test
  void aStaleFileOfTheRightSizeIsCheckedAndReplaced() throws IOException {
    byte[] stale = WEIGHTS.clone();
    stale[0] ^= 1;
    Files.write(dir.resolve("w.bin"), stale);
    Store store = new Store();
    store.served.put("w.bin", WEIGHTS);
    store.announced.put("w.bin", of(ContentChecksum.Algorithm.MD5, WEIGHTS));
    download(store);
    assertThat(store.offsets).containsExactly(0L);
    assertThat(Files.readAllBytes(dir.resolve("w.bin"))).isEqualTo(WEIGHTS);
  }
}
