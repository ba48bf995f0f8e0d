package dev.modelplane.operator.modelsource.fetch;

import java.util.ArrayList;
import java.util.List;

/**
 * What the object store listings ({@link S3Client}, {@link OciClient}, {@link GcsClient}, {@link AzureBlobClient})
 * check alike while they page through the names under a prefix: at most {@value #MAX_PAGES} pages, only names under
 * the prefix that are not directory markers, at most a set number of files, a new page token every time and at least
 * one file in the end. Each client keeps its own paging protocol and parsing.
 */
final class ListingGuard {
  /** Pages a listing asks for at most. */
  static final int MAX_PAGES = 100_000;

  private final String listing;
  private final String origin;
  private final String prefix;
  private final int maxObjects;
  private final String tooMany;
  private final List<RemoteFile> files = new ArrayList<>();
  private int pages;

  /**
   * @param listing the source being listed, as {@link ModelFileSource#describe()} names it
   * @param origin the server's origin
   * @param prefix the prefix every listed name must start with
   * @param tooMany what the limit message says there are more of, e.g. {@code objects under prefix 'm/' in S3
   *     bucket 'b'}
   */
  ListingGuard(String listing, String origin, String prefix, int maxObjects, String tooMany) {
    this.listing = listing;
    this.origin = origin;
    this.prefix = prefix;
    this.maxObjects = maxObjects;
    this.tooMany = tooMany;
  }

  /** {@code maxObjects}, checked to be positive: what a client's constructor keeps as its limit. */
  static int limit(int maxObjects) {
    if (maxObjects < 1) {
      throw new IllegalArgumentException("the object limit must be positive, got " + maxObjects);
    }
    return maxObjects;
  }

  /** Counts the next page asked for; fails past {@link #MAX_PAGES}. */
  void page() throws FetchException {
    if (pages >= MAX_PAGES) {
      throw new FetchException(FetchException.Kind.INVALID, "listing " + listing + " took more than " + MAX_PAGES
          + " pages");
    }
    pages++;
  }

  /**
   * The path relative to the prefix of a listed name, or null for a directory marker or a name the server should not
   * have listed. Fails when the listing already holds the most files allowed.
   */
  String relative(String name) throws FetchException {
    if (!name.startsWith(prefix) || name.endsWith("/")) {
      return null;
    }
    if (files.size() >= maxObjects) {
      throw new FetchException(FetchException.Kind.INVALID, "more than " + maxObjects + " " + tooMany
          + "; a model may have at most " + maxObjects + " files (model agent flag --max-listed-objects)");
    }
    return name.substring(prefix.length());
  }

  /** Keeps a file whose path {@link #relative} gave. */
  void add(RemoteFile file) {
    files.add(file);
  }

  /**
   * The token of the next page; fails when it is empty or the one just used.
   *
   * @param problem what the message calls that, e.g. {@code the same page token twice}
   */
  String next(String token, String previous, String problem) throws FetchException {
    if (token.isEmpty() || token.equals(previous)) {
      throw new FetchException(FetchException.Kind.INVALID, "listing " + listing + " at " + origin + ": " + problem);
    }
    return token;
  }

  /**
   * The files listed.
   *
   * @param none the message when there are none
   * @throws FetchException {@code NOT_FOUND} when there are none
   */
  List<RemoteFile> files(String none) throws FetchException {
    if (files.isEmpty()) {
      throw new FetchException(FetchException.Kind.NOT_FOUND, none);
    }
    return List.copyOf(files);
  }

  /** The bytes of all files, for the log. */
  static long bytes(List<RemoteFile> files) {
    return files.stream().mapToLong(RemoteFile::size).sum();
  }
}
