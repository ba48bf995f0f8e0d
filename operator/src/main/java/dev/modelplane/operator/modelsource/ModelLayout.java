package dev.modelplane.operator.modelsource;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelFileFormat;
import dev.modelplane.api.llmkube.v1alpha1.ModelSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where a Model's files live inside an inference pod, and how they get there. Pure: computed from the Model's spec
 * (and the Hugging Face endpoint) only, so that {@code modelplane render} and the operator agree.
 *
 * <p>Layout: downloaded files go to {@code /models/<cacheKey>/<file>} (a cache claim or an emptyDir is mounted at
 * {@code /models}); a {@code pvc://claim/path} source is mounted read-only at {@code /model-source}; a local path's
 * directory is mounted read-only from the node at {@code /host-model}; a Hugging Face repository without
 * {@code files} is handed to the runtime by id.
 *
 * @param source the parsed source
 * @param staging how the files reach the pod
 * @param cacheKey the cache key ({@code ""} unless the files are downloaded)
 * @param modelPath path of the primary file in the container, or the repository id when resolved by the runtime
 * @param modelDir directory holding the staged files (null when resolved by the runtime)
 * @param mmprojPath path of the multimodal projector, or null
 * @param downloads files the downloader fetches, primary first (empty unless {@link Staging#DOWNLOAD})
 * @param directoryFormat the runtime should load the directory rather than one file (safetensors and friends)
 */
public record ModelLayout(
    ModelSource source,
    Staging staging,
    String cacheKey,
    String modelPath,
    String modelDir,
    String mmprojPath,
    List<Download> downloads,
    boolean directoryFormat) {

  /** Mount point of the model cache (or its emptyDir stand-in). */
  public static final String CACHE_MOUNT = "/models";
  /** Mount point of a {@code pvc://} source's claim. */
  public static final String PVC_MOUNT = "/model-source";
  /** Mount point of a local source's directory. */
  public static final String HOST_MOUNT = "/host-model";

  /** How a Model's files reach the inference pod. */
  public enum Staging {
    /** Downloaded by the model-downloader init container into {@code /models/<cacheKey>}. */
    DOWNLOAD,
    /** Read from the source's PersistentVolumeClaim. */
    PVC,
    /** Read from the node's file system. */
    HOST_PATH,
    /** Fetched by the model server itself from the Hugging Face hub. */
    RUNTIME
  }

  /**
   * One file to download.
   *
   * @param url {@code https://…} or {@code s3://bucket/key}
   * @param name path relative to the model directory
   */
  public record Download(String url, String name) {
  }

  /**
   * The layout of a Model.
   *
   * @throws IllegalArgumentException when {@code spec.source} does not parse, or names files it cannot hold
   */
  public static ModelLayout of(Model model, String huggingFaceEndpoint) {
    ModelSpec spec = model.getSpec();
    ModelSource source = ModelSource.parse(spec.source());
    List<String> files = spec.files() == null ? List.of() : spec.files();
    for (String f : files) {
      checkRelative(f, "spec.files");
    }
    if (spec.mmproj() != null && !spec.mmproj().startsWith("https://") && !spec.mmproj().startsWith("http://")) {
      checkRelative(spec.mmproj(), "spec.mmproj");
    }
    boolean directory = spec.format() != null && spec.format() != ModelFileFormat.GGUF
        && spec.format() != ModelFileFormat.CUSTOM;
    String key = CacheKey.of(spec.source());
    return switch (source) {
      case ModelSource.Http http -> {
        if (!files.isEmpty()) {
          throw new IllegalArgumentException("spec.files: only hf:// and s3:// sources can list files");
        }
        String primary = basename(stripQuery(http.url()));
        String dir = CACHE_MOUNT + "/" + key;
        List<Download> downloads = new ArrayList<>(List.of(new Download(http.url(), primary)));
        String mmproj = null;
        if (spec.mmproj() != null) {
          String url = spec.mmproj().contains("://") ? spec.mmproj() : parent(stripQuery(http.url())) + "/" + spec.mmproj();
          String name = basename(stripQuery(url));
          downloads.add(new Download(url, name));
          mmproj = dir + "/" + name;
        }
        yield new ModelLayout(source, Staging.DOWNLOAD, key, dir + "/" + primary, dir, mmproj, List.copyOf(downloads),
            false);
      }
      case ModelSource.HuggingFace hf when files.isEmpty() ->
          new ModelLayout(source, Staging.RUNTIME, "", hf.id(), null, null, List.of(), true);
      case ModelSource.HuggingFace hf -> {
        String base = huggingFaceEndpoint + "/" + hf.repo() + "/resolve/"
            + (hf.revision() == null ? "main" : hf.revision()) + "/";
        yield multiFile(source, key, files, spec.mmproj(), base, directory);
      }
      case ModelSource.S3 s3 when files.isEmpty() -> {
        String dir = CACHE_MOUNT + "/" + key;
        String primary = basename(s3.key());
        String mmproj = null;
        List<Download> downloads = new ArrayList<>(List.of(new Download("s3://" + s3.bucket() + "/" + s3.key(), primary)));
        if (spec.mmproj() != null) {
          String k = parent(s3.key()).isEmpty() ? spec.mmproj() : parent(s3.key()) + "/" + spec.mmproj();
          downloads.add(new Download("s3://" + s3.bucket() + "/" + k, basename(spec.mmproj())));
          mmproj = dir + "/" + basename(spec.mmproj());
        }
        yield new ModelLayout(source, Staging.DOWNLOAD, key, dir + "/" + primary, dir, mmproj, List.copyOf(downloads),
            directory);
      }
      case ModelSource.S3 s3 -> {
        String prefix = s3.key().endsWith("/") ? s3.key() : s3.key() + "/";
        yield multiFile(source, key, files, spec.mmproj(), "s3://" + s3.bucket() + "/" + prefix, directory);
      }
      case ModelSource.Pvc pvc -> {
        if (!files.isEmpty()) {
          throw new IllegalArgumentException("spec.files: only hf:// and s3:// sources can list files");
        }
        String path = PVC_MOUNT + "/" + pvc.path();
        yield new ModelLayout(source, Staging.PVC, "", path, parent(path), sibling(path, spec.mmproj()), List.of(),
            directory);
      }
      case ModelSource.LocalPath local -> {
        if (!files.isEmpty()) {
          throw new IllegalArgumentException("spec.files: only hf:// and s3:// sources can list files");
        }
        String path = HOST_MOUNT + "/" + basename(local.path());
        yield new ModelLayout(source, Staging.HOST_PATH, "", path, HOST_MOUNT, sibling(path, spec.mmproj()),
            List.of(), directory);
      }
    };
  }

  /**
   * This layout with its read-only mounts moved, for a second model in the same pod (llama.cpp's draft model):
   * paths under {@code /model-source} and {@code /host-model} move to the given mount points.
   */
  public ModelLayout remounted(String pvcMount, String hostMount) {
    return new ModelLayout(source, staging, cacheKey, move(modelPath, pvcMount, hostMount),
        move(modelDir, pvcMount, hostMount), move(mmprojPath, pvcMount, hostMount), downloads, directoryFormat);
  }

  private static String move(String path, String pvcMount, String hostMount) {
    if (path == null) {
      return null;
    }
    if (path.equals(PVC_MOUNT) || path.startsWith(PVC_MOUNT + "/")) {
      return pvcMount + path.substring(PVC_MOUNT.length());
    }
    if (path.equals(HOST_MOUNT) || path.startsWith(HOST_MOUNT + "/")) {
      return hostMount + path.substring(HOST_MOUNT.length());
    }
    return path;
  }

  /** The node directory a local source's mount comes from. */
  public String hostDirectory() {
    return source instanceof ModelSource.LocalPath local ? parent(local.path()) : null;
  }

  /** The claim a {@code pvc://} source names. */
  public String sourceClaim() {
    return source instanceof ModelSource.Pvc pvc ? pvc.claim() : null;
  }

  /** File names staged relative to {@link #modelDir()}, primary first. */
  public List<String> stagedFiles() {
    return downloads.stream().map(Download::name).toList();
  }

  private static ModelLayout multiFile(ModelSource source, String key, List<String> files, String mmproj,
      String base, boolean directory) {
    String dir = CACHE_MOUNT + "/" + key;
    Set<String> names = new LinkedHashSet<>(files);
    String mmprojPath = null;
    String mmprojUrl = null;
    if (mmproj != null && mmproj.contains("://")) {
      mmprojUrl = mmproj;
      mmprojPath = dir + "/" + basename(stripQuery(mmproj));
    } else if (mmproj != null) {
      names.add(mmproj);
      mmprojPath = dir + "/" + mmproj;
    }
    List<Download> downloads = new ArrayList<>();
    for (String name : names) {
      downloads.add(new Download(base + name, name));
    }
    if (mmprojUrl != null) {
      downloads.add(new Download(mmprojUrl, basename(stripQuery(mmprojUrl))));
    }
    String primary = files.getFirst();
    return new ModelLayout(source, Staging.DOWNLOAD, key, directory ? dir : dir + "/" + primary, dir, mmprojPath,
        List.copyOf(downloads), directory);
  }

  private static void checkRelative(String name, String field) {
    Objects.requireNonNull(name);
    if (name.isBlank() || name.startsWith("/") || List.of(name.split("/")).contains("..")) {
      throw new IllegalArgumentException(field + ": " + name + " must be a relative path without ..");
    }
  }

  private static String sibling(String path, String name) {
    return name == null ? null : parent(path) + "/" + name;
  }

  static String basename(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }

  static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "" : path.substring(0, slash);
  }

  private static String stripQuery(String url) {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q);
  }
}
