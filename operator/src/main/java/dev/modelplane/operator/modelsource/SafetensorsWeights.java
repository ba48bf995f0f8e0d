package dev.modelplane.operator.modelsource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The safetensors weights of one model directory and their exact parameter count. A directory holds either a
 * sharded checkpoint ({@code model.safetensors.index.json} naming {@code model-00001-of-00003.safetensors}, …), a
 * single {@code model.safetensors}, or other {@code *.safetensors} files (as diffusers components do), which are
 * summed. Like OME, only the given directory is looked at, not the ones below it.
 */
public sealed interface SafetensorsWeights {
  /**
   * All weight files were read.
   *
   * @param files the files whose headers were read, each once
   * @param parameterCount the sum of their tensors' element counts
   */
  record Counted(List<Path> files, long parameterCount) implements SafetensorsWeights {
    public Counted {
      files = List.copyOf(files);
    }
  }

  /**
   * The index names shard files that are not in the directory (e.g. a partial download), so no exact count exists.
   *
   * @param index the index file
   * @param contents what the index says, including {@code metadata.total_size} for an estimate
   * @param missing the shard file names that are absent, sorted
   */
  record ShardsMissing(Path index, SafetensorsIndex contents, List<String> missing) implements SafetensorsWeights {
    public ShardsMissing {
      missing = List.copyOf(missing);
    }

    /** Says which shards are missing, for a status message or log line. */
    public String message() {
      return index + ": names " + contents.shardFiles().size() + " shard files, " + missing.size()
          + " of them missing: " + String.join(", ", missing.subList(0, Math.min(missing.size(), 10)))
          + (missing.size() > 10 ? ", …" : "");
    }
  }

  /** No safetensors file or index in the directory. */
  record Absent() implements SafetensorsWeights {
  }

  /**
   * Looks at {@code dir} and reads the headers of its weights.
   *
   * @throws SafetensorsFormatException when a present file or the index is malformed
   * @throws ArithmeticException never in practice: a total over {@link Long#MAX_VALUE} parameters
   */
  static SafetensorsWeights scan(Path dir) throws IOException {
    Path indexFile = dir.resolve(SafetensorsIndex.FILE_NAME);
    if (Files.isRegularFile(indexFile)) {
      SafetensorsIndex index = SafetensorsIndex.read(indexFile);
      List<String> missing = index.shardFiles().stream().filter(f -> !Files.isRegularFile(dir.resolve(f))).toList();
      if (!missing.isEmpty()) {
        return new ShardsMissing(indexFile, index, missing);
      }
      return count(index.shardFiles().stream().map(dir::resolve).toList());
    }
    Path single = dir.resolve("model.safetensors");
    if (Files.isRegularFile(single)) {
      return count(List.of(single));
    }
    if (!Files.isDirectory(dir)) {
      return new Absent();
    }
    List<Path> files;
    try (Stream<Path> entries = Files.list(dir)) {
      files = entries.filter(p -> p.getFileName().toString().endsWith(".safetensors") && Files.isRegularFile(p))
          .sorted().toList();
    }
    return files.isEmpty() ? new Absent() : count(files);
  }

  private static Counted count(List<Path> files) throws IOException {
    long total = 0;
    List<Path> read = new ArrayList<>();
    for (Path file : files) {
      total = Math.addExact(total, SafetensorsHeader.read(file).parameterCount());
      read.add(file);
    }
    return new Counted(read, total);
  }
}
