package dev.modelplane.operator.modelsource.fetch;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills one file's {@code .part} until it has the announced size: resumes from the part's length with a ranged
 * request, restarts from zero when the server ignores the range, and retries transient failures with backoff. The
 * file's expected checksum is computed on the way (the part's existing bytes first), so verifying costs no second
 * read.
 */
final class PartTransfer {
  private static final Logger LOG = LoggerFactory.getLogger(PartTransfer.class);
  private static final int BUFFER = 256 * 1024;

  /** The outcome: the part's checksum (null when the file announces none) and what was reused or moved. */
  record Filled(ContentChecksum checksum, long resumedBytes, long transferredBytes) {
  }

  private final ModelFileSource source;
  private final DownloadOptions options;
  private final TransferWatchdog watchdog;
  private final ProgressMeter meter;
  private long resumed;
  private long transferred;

  PartTransfer(ModelFileSource source, DownloadOptions options, TransferWatchdog watchdog, ProgressMeter meter) {
    this.source = source;
    this.options = options;
    this.watchdog = watchdog;
    this.meter = meter;
  }

  Filled fill(RemoteFile file, Path part) throws FetchException {
    ContentChecksum.Hasher digest = file.expected().map(c -> c.algorithm().newHasher()).orElse(null);
    resumed = 0;
    transferred = 0;
    long have = preparePart(file, part, digest);
    resumed = have;
    int idleFailures = 0;
    for (int attempt = 1; have < file.size(); attempt++) {
      checkCancelled(file);
      long before = have;
      try {
        have = attempt(file, part, have, digest);
        if (have < file.size()) {
          throw new FetchException(FetchException.Kind.CONNECTION, source.describe() + " ended '" + file.path()
              + "' after " + have + " of " + file.size() + " bytes");
        }
      } catch (FetchException e) {
        have = partLength(part);
        if (!e.retryable()) {
          throw e;
        }
        idleFailures = have > before ? 1 : idleFailures + 1;
        if (idleFailures >= options.maxAttempts() || attempt >= options.maxAttempts() * 20) {
          throw new FetchException(e.kind(), e.getMessage() + " (gave up on '" + file.path() + "' after " + attempt
              + " attempts; " + have + " bytes kept in its .part for a later resume)", e);
        }
        Duration wait = options.backoff(idleFailures + 1);
        LOG.warn("fetch.file.retry source={} path={} attempt={} have={} size={} backoffMs={} error=\"{}\"",
            source.describe(), file.path(), attempt, have, file.size(), wait.toMillis(), e.getMessage());
        sleep(wait, file);
      }
    }
    return new Filled(digest == null ? null : new ContentChecksum(file.expected().orElseThrow().algorithm(),
        digest.hex()), resumed, transferred);
  }

  /** Makes the part consistent with the digest; returns its length (the offset to resume from). */
  private long preparePart(RemoteFile file, Path part, ContentChecksum.Hasher digest) throws FetchException {
    long have = partLength(part);
    if (have > file.size()) {
      LOG.info("fetch.file.part-too-long path={} part={} size={}", file.path(), have, file.size());
      truncate(part, file);
      have = 0;
    }
    if (have > 0 && digest != null) {
      meter.phase(DownloadProgress.Phase.VERIFYING);
      FileChecksums.update(digest, part, watchdog::cancelRequested, "the partial download of '" + file.path() + "'");
    }
    if (have > 0) {
      LOG.info("fetch.file.resume source={} path={} from={} size={}", source.describe(), file.path(), have,
          file.size());
    }
    meter.alreadyDone(have);
    return have;
  }

  /** One request: appends what arrives to the part; returns the part's new length. */
  private long attempt(RemoteFile file, Path part, long have, ContentChecksum.Hasher digest) throws FetchException {
    meter.phase(DownloadProgress.Phase.DOWNLOADING);
    RemoteStream in = openWatched(file, have);
    try (in) {
      if (in.startOffset() != have) {
        LOG.info("fetch.file.restart source={} path={} reason=range-ignored had={}", source.describe(), file.path(),
            have);
        truncate(part, file);
        meter.discarded(have);
        if (digest != null) {
          digest.reset();
        }
        resumed = 0;
        have = 0;
      }
      return copy(in, file, part, have, digest);
    } catch (IOException e) {
      throw failure(e, file);
    } finally {
      watchdog.release();
    }
  }

  private RemoteStream openWatched(RemoteFile file, long offset) throws FetchException {
    try {
      RemoteStream in = source.open(file, offset);
      watchdog.watch(in);
      return in;
    } catch (FetchException e) {
      throw e;
    } catch (IOException e) {
      throw failure(e, file);
    }
  }

  private long copy(RemoteStream in, RemoteFile file, Path part, long have, ContentChecksum.Hasher digest)
      throws IOException {
    byte[] buffer = new byte[BUFFER];
    try (FileOutputStream out = new FileOutputStream(part.toFile(), true)) {
      while (true) {
        int n = in.read(buffer);
        if (n < 0) {
          out.getChannel().force(false);
          return have;
        }
        if (have + n > file.size()) {
          out.close();
          deleteQuietly(part);
          meter.discarded(have);
          throw new FetchException(FetchException.Kind.INTEGRITY, "size mismatch for '" + file.path() + "' from "
              + source.describe() + ": expected " + file.size() + " bytes, got at least " + (have + n)
              + " (the partial file was deleted)");
        }
        write(out, buffer, n, file);
        if (digest != null) {
          digest.update(buffer, 0, n);
        }
        have += n;
        transferred += n;
        meter.transferred(n);
        watchdog.progressed();
        checkCancelled(file);
      }
    }
  }

  private static void write(OutputStream out, byte[] buffer, int n, RemoteFile file) throws FetchException {
    try {
      out.write(buffer, 0, n);
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.STORAGE, "cannot write the partial download of '" + file.path()
          + "': " + HttpSender.describe(e), e);
    }
  }

  /** Classifies a failure of a running transfer, taking into account why the watchdog stopped it. */
  private FetchException failure(IOException e, RemoteFile file) {
    TransferWatchdog.Reason reason = watchdog.release();
    if (reason == TransferWatchdog.Reason.CANCELLED || watchdog.cancelRequested()) {
      return cancelled(file, e);
    }
    if (reason == TransferWatchdog.Reason.STALLED) {
      return new FetchException(FetchException.Kind.CONNECTION, source.describe() + " sent no data for '"
          + file.path() + "' for " + options.stallTimeout().toSeconds() + " s", e);
    }
    if (e instanceof FetchException fetch) {
      return fetch;
    }
    return new FetchException(FetchException.Kind.CONNECTION, "transfer of '" + file.path() + "' from "
        + source.describe() + " broke: " + HttpSender.describe(e), e);
  }

  private void checkCancelled(RemoteFile file) throws FetchException {
    if (watchdog.cancelRequested()) {
      throw cancelled(file, null);
    }
  }

  private static FetchException cancelled(RemoteFile file, Throwable cause) {
    return new FetchException(FetchException.Kind.CANCELLED, "download cancelled during '" + file.path()
        + "'; its .part is kept for a resume", cause);
  }

  private void sleep(Duration wait, RemoteFile file) throws FetchException {
    long end = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < end) {
      checkCancelled(file);
      try {
        Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw cancelled(file, e);
      }
    }
  }

  private static long partLength(Path part) throws FetchException {
    try {
      return Files.exists(part) ? Files.size(part) : 0;
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.STORAGE, "cannot read the size of " + part.getFileName() + ": "
          + HttpSender.describe(e), e);
    }
  }

  private static void truncate(Path part, RemoteFile file) throws FetchException {
    try (FileOutputStream ignored = new FileOutputStream(part.toFile(), false)) {
      // opening without append empties the file
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.STORAGE, "cannot restart the partial download of '"
          + file.path() + "': " + HttpSender.describe(e), e);
    }
  }

  static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException ignored) {
      // the next run truncates or replaces it
    }
  }
}
