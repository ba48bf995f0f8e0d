package dev.modelplane.common.tokenizer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Loaded Hugging Face tokenizers, one per model path, so each is read and its native side built once per process
 * however many requests, ranks or routes use it. An entry is good while the files it was read from keep their size
 * and modification time; when they change, the next lookup loads the model again. At most {@code capacity} models
 * are kept, the least recently used dropped first. Dropped or replaced tokenizers are not closed, since a caller may
 * still be using one: each frees its native side once nobody holds it. Lookups for other models never wait for a
 * load in progress.
 */
public final class TokenizerCache {
  private static final TokenizerCache SHARED = new TokenizerCache(16);

  private final int capacity;
  private final Map<Path, Entry> entries;

  /** The process-wide cache (16 models). */
  public static TokenizerCache shared() {
    return SHARED;
  }

  /** A cache of at most {@code capacity} models (at least 1). */
  public TokenizerCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    this.capacity = capacity;
    this.entries = new LinkedHashMap<>(16, 0.75f, true);
  }

  private record Entry(List<Stamp> stamps, FutureTask<HfTokenizer> load) {
  }

  /** A file's identity for the cache: its size, modification time and file key (inode), all null when absent. */
  private record Stamp(Path file, Long size, FileTime modified, Object fileKey) {
    static Stamp of(Path file) {
      try {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        return new Stamp(file, a.size(), a.lastModifiedTime(), a.fileKey());
      } catch (IOException e) {
        return new Stamp(file, null, null, null);
      }
    }
  }

  /**
   * The tokenizer of {@code path} (a model directory or a {@code tokenizer.json}), loaded on first use. The result
   * is shared: do not close it.
   *
   * @throws TokenizerException when it cannot be loaded (the next lookup tries again)
   */
  public ModelTokenizer get(Path path) {
    Path key = path.toAbsolutePath().normalize();
    List<Stamp> stamps = stamps(key);
    Entry entry;
    boolean mine = false;
    synchronized (entries) {
      entry = entries.get(key);
      if (entry == null || !entry.stamps().equals(stamps)) {
        entry = new Entry(stamps, new FutureTask<>(() -> HfTokenizer.load(key)));
        entries.put(key, entry);
        mine = true;
        while (entries.size() > capacity) {
          entries.remove(entries.keySet().iterator().next());
        }
      }
    }
    if (mine) {
      entry.load().run();
    }
    try {
      return entry.load().get();
    } catch (ExecutionException e) {
      synchronized (entries) {
        entries.remove(key, entry);
      }
      if (e.getCause() instanceof TokenizerException t) {
        throw t;
      }
      throw new TokenizerException("cannot load the tokenizer at " + key + ": " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TokenizerException("interrupted while loading the tokenizer at " + key, e);
    }
  }

  /** The number of models held. */
  public int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  private static List<Stamp> stamps(Path path) {
    if (Files.isDirectory(path)) {
      return List.of(Stamp.of(path.resolve(HfTokenizer.FILE)), Stamp.of(path.resolve(TokenizerConfig.FILE)),
          Stamp.of(path.resolve(TokenizerConfig.TEMPLATE_FILE)));
    }
    return List.of(Stamp.of(path));
  }
}
