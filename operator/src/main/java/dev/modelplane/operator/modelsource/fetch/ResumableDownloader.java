package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads a model's files from a {@link ModelFileSource} into a directory so that an interrupted download (crash,
 * cancel, broken connection) continues where it stopped:
 *
 * <ul>
 *   <li>each file is written to {@code <file>.part}, resumed from the part's length with a ranged request (restarted
 *       from zero if the server ignores the range), and renamed into place atomically once complete;</li>
 *   <li>size and, when the source announces one, the checksum (SHA-256, MD5 or CRC32C) are verified (streaming; a
 *       resume hashes the kept part first); a mismatch deletes the part and fails naming the file and both
 *       values;</li>
 *   <li>files already in place with the right size (and digest) are skipped; a verified digest is remembered in a
 *       sidecar under {@code .modelplane-fetch/} so a restart does not hash gigabytes again;</li>
 *   <li>remote names that would leave the directory ({@code ..}, absolute paths) are refused before anything is
 *       written;</li>
 *   <li>transient failures are retried with exponential backoff, a bounded number of times;</li>
 *   <li>the cancel flag (or interrupting the calling thread) stops the download within about 100 ms, even in a
 *       blocked read, keeping the part for a resume.</li>
 * </ul>
 *
 * <p>Progress goes to a listener as {@link DownloadProgress} records. One instance may run several downloads one
 * after another or at once (into different directories).
 */
public final class ResumableDownloader {
  private static final Logger LOG = LoggerFactory.getLogger(ResumableDownloader.class);

  private final DownloadOptions options;

  public ResumableDownloader() {
    this(DownloadOptions.DEFAULTS);
  }

  public ResumableDownloader(DownloadOptions options) {
    this.options = options;
  }

  /** Downloads every file {@code source} lists (listing with the same retries as the transfers). */
  public DownloadResult download(ModelFileSource source, Path targetDir, Consumer<DownloadProgress> listener,
      BooleanSupplier cancelled) throws IOException {
    return download(source, list(source, cancelled), targetDir, listener, cancelled);
  }

  /** The source's files, retrying transient failures like a transfer. */
  public List<RemoteFile> list(ModelFileSource source, BooleanSupplier cancelled) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return source.list();
      } catch (FetchException e) {
        if (!e.retryable() || attempt >= options.maxAttempts()) {
          throw e;
        }
        Duration wait = options.backoff(attempt + 1);
        LOG.warn("fetch.list.retry source={} attempt={} backoffMs={} error=\"{}\"", source.describe(), attempt,
            wait.toMillis(), e.getMessage());
        long end = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < end) {
          if (cancelled.getAsBoolean() || Thread.currentThread().isInterrupted()) {
            throw new FetchException(FetchException.Kind.CANCELLED, "download cancelled while listing "
                + source.describe(), e);
          }
          sleepBriefly(end);
        }
      }
    }
  }

  private static void sleepBriefly(long endNanos) throws FetchException {
    try {
      Thread.sleep(Math.max(1, Math.min(100, (endNanos - System.nanoTime()) / 1_000_000)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FetchException(FetchException.Kind.CANCELLED, "download cancelled while waiting to retry", e);
    }
  }

  /**
   * Downloads {@code files} from {@code source} into {@code targetDir} (created if missing).
   *
   * @param listener receives progress; runs on the calling thread, so it should be quick
   * @param cancelled polled while downloading; true stops the download with a {@link FetchException} of kind
   *     {@link FetchException.Kind#CANCELLED}
   * @throws FetchException when a file cannot be had: its kind and message say why
   */
  public DownloadResult download(ModelFileSource source, List<RemoteFile> files, Path targetDir,
      Consumer<DownloadProgress> listener, BooleanSupplier cancelled) throws IOException {
    long started = System.nanoTime();
    ModelPaths.checkAll(files, source.describe());
    Path dir = targetDir.toAbsolutePath().normalize();
    createDirectories(dir);
    Thread caller = Thread.currentThread();
    BooleanSupplier stop = () -> cancelled.getAsBoolean() || caller.isInterrupted();
    ProgressMeter meter = new ProgressMeter(safe(listener), options.progressInterval(), System::nanoTime,
        files.stream().mapToLong(RemoteFile::size).sum(), files.size());
    VerifiedDigests digests = new VerifiedDigests(dir);
    int downloaded = 0;
    long bytes = 0;
    long resumed = 0;
    LOG.info("fetch.start source={} files={} bytes={}", source.describe(), files.size(),
        files.stream().mapToLong(RemoteFile::size).sum());
    try (TransferWatchdog watchdog = new TransferWatchdog(stop, options.stallTimeout())) {
      PartTransfer transfer = new PartTransfer(source, options, watchdog, meter);
      for (RemoteFile file : files) {
        Path target = ModelPaths.resolve(dir, file.path());
        if (!target.startsWith(dir) || target.equals(dir)) {
          throw new FetchException(FetchException.Kind.INVALID, source.describe() + " lists '" + file.path()
              + "', which resolves outside " + dir.getFileName() + "; refused");
        }
        if (alreadyComplete(file, target, digests, meter, stop)) {
          meter.alreadyDone(file.size());
          meter.fileCompleted();
          continue;
        }
        PartTransfer.Filled filled = fetch(transfer, file, target, digests, source);
        downloaded++;
        bytes += filled.transferredBytes();
        resumed += filled.resumedBytes();
        meter.fileCompleted();
      }
      meter.phase(DownloadProgress.Phase.COMPLETED);
    } catch (FetchException e) {
      meter.phase(e.kind() == FetchException.Kind.CANCELLED ? DownloadProgress.Phase.CANCELLED
          : DownloadProgress.Phase.FAILED);
      LOG.warn("fetch.stopped source={} kind={} error=\"{}\"", source.describe(), e.kind(), e.getMessage());
      throw e;
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    DownloadResult result = new DownloadResult(files.size(), downloaded, files.size() - downloaded, bytes, resumed,
        elapsed);
    LOG.info("fetch.done source={} files={} downloaded={} skipped={} bytes={} resumedBytes={} elapsedMs={}",
        source.describe(), result.files(), downloaded, result.skippedFiles(), bytes, resumed, elapsed.toMillis());
    return result;
  }

  /** Whether {@code target} already holds {@code file} (size, and its checksum when known). */
  private boolean alreadyComplete(RemoteFile file, Path target, VerifiedDigests digests, ProgressMeter meter,
      BooleanSupplier stop) throws FetchException {
    try {
      if (!Files.isRegularFile(target) || Files.size(target) != file.size()) {
        return false;
      }
    } catch (IOException e) {
      return false;
    }
    Optional<ContentChecksum> expected = file.expected();
    if (expected.isEmpty() || digests.verified(file.path(), target, expected.get())) {
      LOG.debug("fetch.file.skip path={} reason=complete", file.path());
      return true;
    }
    meter.phase(DownloadProgress.Phase.VERIFYING);
    ContentChecksum actual = FileChecksums.of(expected.get().algorithm(), target, stop, "'" + file.path() + "'");
    if (actual.equals(expected.get())) {
      digests.record(file.path(), target, actual);
      LOG.info("fetch.file.skip path={} reason=verified", file.path());
      return true;
    }
    LOG.info("fetch.file.stale path={} expected={} actual={}", file.path(), expected.get(), actual);
    return false;
  }

  private PartTransfer.Filled fetch(PartTransfer transfer, RemoteFile file, Path target, VerifiedDigests digests,
      ModelFileSource source) throws FetchException {
    Path part = target.resolveSibling(target.getFileName() + ModelPaths.PART_SUFFIX);
    createDirectories(target.getParent());
    digests.forget(file.path());
    PartTransfer.Filled filled = transfer.fill(file, part);
    long size = size(part);
    if (size != file.size()) {
      PartTransfer.deleteQuietly(part);
      throw new FetchException(FetchException.Kind.INTEGRITY, "size mismatch for '" + file.path() + "' from "
          + source.describe() + ": expected " + file.size() + " bytes, got " + size
          + " (the partial file was deleted)");
    }
    Optional<ContentChecksum> expected = file.expected();
    if (expected.isPresent() && !expected.get().equals(filled.checksum())) {
      PartTransfer.deleteQuietly(part);
      String algorithm = expected.get().algorithm().label();
      throw new FetchException(FetchException.Kind.INTEGRITY, algorithm + " mismatch for '" + file.path()
          + "' from " + source.describe() + ": expected " + expected.get().hex() + ", got "
          + (filled.checksum() == null ? "none" : filled.checksum().hex()) + " (the partial file was deleted)");
    }
    moveIntoPlace(part, target, file);
    if (filled.checksum() != null) {
      digests.record(file.path(), target, filled.checksum());
    }
    LOG.info("fetch.file.done path={} size={} resumedFrom={} transferred={} checksum={}", file.path(), file.size(),
        filled.resumedBytes(), filled.transferredBytes(),
        expected.map(c -> c.algorithm().label() + " verified").orElse("unknown"));
    return filled;
  }

  private static void moveIntoPlace(Path part, Path target, RemoteFile file) throws FetchException {
    try {
      if (!Files.exists(part)) {
        Files.createFile(part); // an empty file: nothing was transferred
      }
      try {
        Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.STORAGE, "cannot move the download of '" + file.path()
          + "' into place: " + HttpSender.describe(e), e);
    }
  }

  private static long size(Path file) throws FetchException {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.STORAGE, "cannot read the size of " + file.getFileName(), e);
    }
  }

  private static void createDirectories(Path dir) throws FetchException {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.STORAGE, "cannot create directory " + dir + ": "
          + HttpSender.describe(e), e);
    }
  }

  /** The caller's listener, with its failures logged instead of stopping the download. */
  private static Consumer<DownloadProgress> safe(Consumer<DownloadProgress> listener) {
    return progress -> {
      try {
        listener.accept(progress);
      } catch (RuntimeException e) {
        LOG.warn("fetch.progress-listener-failed error=\"{}\"", HttpSender.describe(e));
      }
    };
  }
}
