package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** A remote place that holds a model's files: a Hugging Face repository at a revision, an S3 prefix, … */
public interface ModelFileSource {
  /** Every file of the model, with paths relative to the model directory. */
  List<RemoteFile> list() throws IOException;

  /**
   * Opens a file for reading from {@code offset}. A server that ignores the range answers from the start: check
   * {@link RemoteStream#startOffset()} before appending.
   */
  RemoteStream open(RemoteFile file, long offset) throws IOException;

  /** The immutable version the files are read at (a git commit sha), where the source has one. */
  Optional<String> revision() throws IOException;

  /** A short description for logs and messages, e.g. {@code hf://org/model@main}; never holds credentials. */
  String describe();
}
