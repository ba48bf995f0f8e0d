package dev.modelplane.operator.ome.modelagent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.operator.modelsource.RedactedUrl;
import dev.modelplane.operator.modelsource.fetch.DownloadOptions;
import dev.modelplane.operator.modelsource.fetch.DownloadProgress;
import dev.modelplane.operator.modelsource.fetch.DownloadResult;
import dev.modelplane.operator.modelsource.fetch.FetchException;
import dev.modelplane.operator.modelsource.fetch.ModelFileSource;
import dev.modelplane.operator.modelsource.fetch.RemoteFile;
import dev.modelplane.operator.modelsource.fetch.ResumableDownloader;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import dev.modelplane.operator.ome.storage.NodeReport;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings one model's state on the node in line with its spec: runs the action {@link ModelPlanner} decides and
 * publishes the outcome through {@link NodeStatusWriter}. Called by the work queue, never twice at once for one key;
 * remembers what it last achieved per model so that repeated events cost nothing. The actions stay in this one class
 * because each reads and writes the same per-model memories (last spec, running download, outcome, retries); the pure
 * rules they apply live beside it ({@link ModelPlanner}, {@link AgentLimits}, {@link AgentReports}).
 */
final class ModelSync {
  private static final Logger LOG = LoggerFactory.getLogger(ModelSync.class);

  /** What the informers know. */
  interface View {
    /** The model as cached now, or null when it no longer exists. */
    AgentModel current(BaseModelKey key);

    /** The node's labels as cached now. */
    Map<String, String> nodeLabels();

    /** Every cached model. */
    Collection<AgentModel> allModels();
  }

  /** What a model reached, for the spec it had then. */
  private record Outcome(String fingerprint, String status, ModelRoots.Resolved dir) {
  }

  /** A download under way. */
  private record Active(String fingerprint, AtomicBoolean cancel) {
  }

  private final ModelAgentSettings settings;
  private final View view;
  private final NodeStatusWriter writer;
  private final ModelSourceFactory sources;
  private final BiFunction<String, String, PersistentVolumeClaim> claims;
  private final AgentMetrics metrics;
  private final ResumableDownloader downloader;
  private final ModelFileCleaner cleaner;
  private final DiskBudget disk;
  private final Clock clock = Clock.systemUTC();
  private final Map<BaseModelKey, AgentModel> lastKnown = new ConcurrentHashMap<>();
  private final Map<BaseModelKey, Active> active = new ConcurrentHashMap<>();
  private final Map<BaseModelKey, Outcome> done = new ConcurrentHashMap<>();
  private final Map<BaseModelKey, Integer> retries = new ConcurrentHashMap<>();
  private volatile BiConsumer<BaseModelKey, Duration> retry = (k, d) -> { };

  ModelSync(ModelAgentSettings settings, View view, NodeStatusWriter writer, ModelSourceFactory sources,
      BiFunction<String, String, PersistentVolumeClaim> claims, AgentMetrics metrics) {
    this.settings = settings;
    this.view = view;
    this.writer = writer;
    this.sources = sources;
    this.claims = claims;
    this.metrics = metrics;
    DownloadOptions d = settings.download();
    Duration interval = d.progressInterval().compareTo(settings.progressInterval()) < 0 ? d.progressInterval()
        : settings.progressInterval();
    this.downloader = new ResumableDownloader(new DownloadOptions(d.maxAttempts(), d.initialBackoff(),
        d.maxBackoff(), d.stallTimeout(), interval));
    this.cleaner = new ModelFileCleaner(settings.roots(), view, settings.nodeName());
    this.disk = new DiskBudget(settings.roots(), settings.limits().diskBudgetBytes(), DiskBudget.FILES);
  }

  /** Where retries are scheduled (the work queue's delayed add). */
  void retryWith(BiConsumer<BaseModelKey, Duration> scheduler) {
    this.retry = scheduler;
  }

  /** An informer saw {@code model}: remember its last state and stop a download it no longer wants. */
  void observed(AgentModel model) {
    lastKnown.put(model.key(), model);
    cancelIfStale(model.key());
  }

  /** Cancels the model's download if the model is gone, deleted, off this node or changed. */
  void cancelIfStale(BaseModelKey key) {
    Active a = active.get(key);
    if (a == null) {
      return;
    }
    AgentModel model = view.current(key);
    AgentAction action = ModelPlanner.plan(model, settings.nodeName(), view.nodeLabels(), settings.roots(),
        view.allModels());
    if (!(action instanceof AgentAction.Download) || !a.fingerprint().equals(model.fingerprint())) {
      LOG.info("agent.download-cancel model={} why=\"{}\"", key, action instanceof AgentAction.Remove r ? r.why()
          : "spec changed");
      a.cancel().set(true);
    }
  }

  /** Stops every download (partial files stay for a resume). */
  void cancelAll() {
    active.values().forEach(a -> a.cancel().set(true));
  }

  /** The keys this agent knows of (cached, seen, or reported). */
  java.util.Set<BaseModelKey> knownKeys() {
    java.util.Set<BaseModelKey> keys = new java.util.HashSet<>(lastKnown.keySet());
    view.allModels().forEach(m -> keys.add(m.key()));
    writer.reportKeys().forEach(k -> BaseModelKey.fromReportKey(k).ifPresent(keys::add));
    return keys;
  }

  void process(BaseModelKey key) {
    try {
      sync(key);
    } catch (RuntimeException e) {
      int n = retries.merge(key, 1, Integer::sum);
      Duration wait = settings.backoff(n);
      LOG.warn("agent.sync-error model={} attempt={} retryInMs={} error=\"{}\"", key, n, wait.toMillis(),
          e.getMessage());
      retry.accept(key, wait);
    }
  }

  private void sync(BaseModelKey key) {
    AgentModel model = view.current(key);
    if (model != null) {
      lastKnown.put(key, model);
    }
    AgentAction action = ModelPlanner.plan(model, settings.nodeName(), view.nodeLabels(), settings.roots(),
        view.allModels());
    if (action instanceof AgentAction.Remove remove) {
      remove(key, remove.why(), model == null);
      return;
    }
    String fingerprint = model.fingerprint();
    Outcome last = done.get(key);
    if (last != null && last.fingerprint().equals(fingerprint)) {
      return;
    }
    if (last == null && keptFromEarlierRun(key, model, action)) {
      return;
    }
    ModelRoots.Resolved target = action instanceof AgentAction.Download d ? d.dir() : null;
    if (last != null && last.dir() != null && !last.dir().equals(target)) {
      cleaner.delete(key, last.dir());
    }
    if (!(action instanceof AgentAction.Fail) && overLimit(key)) {
      fail(key, model, AgentLimits.NODE_MODEL_LIMIT, "node " + settings.nodeName() + " already holds "
          + settings.limits().maxModelsPerNode() + " models, the most its model agent places (agent flag "
          + "--max-models-per-node); retried when one goes", null);
      later(key);
      return;
    }
    switch (action) {
      case AgentAction.Fail f -> fail(key, model, f.reason(), f.message(), null);
      case AgentAction.Download d -> download(key, model, d);
      case AgentAction.UseLocal l -> local(key, model, l);
      case AgentAction.UsePvc p -> pvc(key, model, p);
      case AgentAction.Remove r -> throw new IllegalStateException("handled above");
    }
  }

  /** Whether placing {@code key} would exceed the models this agent places on its node. */
  private boolean overLimit(BaseModelKey key) {
    java.util.Set<BaseModelKey> placed = new java.util.HashSet<>(active.keySet());
    done.forEach((k, outcome) -> {
      if (NodeReport.READY.equals(outcome.status())) {
        placed.add(k);
      }
    });
    return AgentLimits.overLimit(placed, key, settings.limits().maxModelsPerNode());
  }

  /** Forgets a failure that may pass by itself (space freed, a model gone) and looks again after the resync time. */
  private void later(BaseModelKey key) {
    done.remove(key);
    retry.accept(key, settings.resync());
  }

  /** After a restart: a model reported Ready from the same URI, whose files are still there, is not fetched again. */
  private boolean keptFromEarlierRun(BaseModelKey key, AgentModel model, AgentAction action) {
    NodeReport report = writer.report(key);
    if (report == null || !report.ready() || !Objects.equals(report.storageUri(), model.storageUri())) {
      return false;
    }
    ModelRoots.Resolved dir = action instanceof AgentAction.Download d ? d.dir() : null;
    if (dir != null && !Files.isDirectory(dir.localPath()) || action instanceof AgentAction.Fail) {
      return false;
    }
    if (!NodeReport.READY.equals(view.nodeLabels().get(key.labelKey()))) {
      writer.patchNodeLabel(key.labelKey(), NodeReport.READY);
    }
    done.put(key, new Outcome(model.fingerprint(), NodeReport.READY, dir));
    LOG.info("agent.ready-kept model={} storageUri={}", key, RedactedUrl.of(model.storageUri()));
    return true;
  }

  private void download(BaseModelKey key, AgentModel model, AgentAction.Download action) {
    String uri = RedactedUrl.of(action.source().toString());
    String into = action.dir().specPath().toString();
    writer.publish(key, AgentReports.updating(key.name(), model.storageUri(), null, clock.instant(),
        "downloading " + uri + " into " + into));
    ModelSourceFactory.Outcome source = sources.create(model, action.source());
    if (source instanceof ModelSourceFactory.Outcome.Refused refused) {
      fail(key, model, refused.reason(), refused.message(), null);
      return;
    }
    Active handle = new Active(model.fingerprint(), new AtomicBoolean());
    active.put(key, handle);
    cancelIfStale(key); // an event may have come between planning and registering
    AtomicReference<DownloadProgress> progress = new AtomicReference<>();
    ReportThrottle throttle = new ReportThrottle(settings.progressInterval(), System::nanoTime);
    metrics.downloadStarted();
    LOG.info("agent.download-start model={} source={} dir={}", key, uri, into);
    try {
      ModelFileSource files = ((ModelSourceFactory.Outcome.Ready) source).source();
      List<RemoteFile> listed = downloader.list(files, handle.cancel()::get);
      java.util.Optional<String> tooBig = disk.refusal(action.dir(), listed.stream().mapToLong(RemoteFile::size)
          .sum());
      if (tooBig.isPresent()) {
        fail(key, model, DiskBudget.INSUFFICIENT_STORAGE, ModelPlanner.PATH_FIELD + ": " + tooBig.get(), null);
        later(key);
        return;
      }
      DownloadResult result = downloader.download(files, listed, action.dir().localPath(), p -> {
        progress.set(p);
        if (p.phase() != DownloadProgress.Phase.COMPLETED && p.phase() != DownloadProgress.Phase.FAILED
            && p.phase() != DownloadProgress.Phase.CANCELLED && throttle.admit(p)) {
          writer.progress(key, AgentReports.updating(key.name(), model.storageUri(), p, clock.instant(),
              "downloading " + uri + " into " + into));
        }
      }, handle.cancel()::get);
      metrics.bytes(result.downloadedBytes());
      retries.remove(key);
      LOG.info("agent.download-done model={} files={} bytes={} resumedBytes={} elapsedMs={}", key, result.files(),
          result.downloadedBytes(), result.resumedBytes(), result.elapsed().toMillis());
      String note = "downloaded " + uri + " into " + into + " (" + result.files() + " files, "
          + result.downloadedBytes() + " bytes transferred, " + result.resumedBytes() + " resumed)";
      ready(key, model, action.dir(), progress.get(), note);
    } catch (FetchException e) {
      failedDownload(key, model, e, progress.get());
    } catch (IOException e) {
      fail(key, model, "StorageError", e.getMessage(), progress.get());
    } finally {
      active.remove(key);
      metrics.downloadEnded();
    }
  }

  private void failedDownload(BaseModelKey key, AgentModel model, FetchException e, DownloadProgress progress) {
    if (e.kind() == FetchException.Kind.CANCELLED) {
      LOG.info("agent.download-stopped model={} partialsKept=true", key);
      return; // the next sync of the key (or the next run) decides what happens
    }
    if (e.retryable() && transientRetry(key, model, e.getMessage(), progress)) {
      return;
    }
    fail(key, model, AgentReports.reason(e.kind()), e.getMessage(), progress);
  }

  /** Schedules a retry of a transient failure, reporting Updating; false when the retries are used up. */
  private boolean transientRetry(BaseModelKey key, AgentModel model, String message, DownloadProgress progress) {
    int n = retries.merge(key, 1, Integer::sum);
    if (n > settings.maxRetries()) {
      return false;
    }
    Duration wait = settings.backoff(n);
    LOG.warn("agent.retry model={} retry={} of={} waitMs={} error=\"{}\"", key, n, settings.maxRetries(),
        wait.toMillis(), message);
    writer.progress(key, AgentReports.updating(key.name(), model.storageUri(), progress, clock.instant(),
        "retry " + n + " of " + settings.maxRetries() + " in " + wait.toSeconds() + "s: " + message));
    retry.accept(key, wait);
    return true;
  }

  private void local(BaseModelKey key, AgentModel model, AgentAction.UseLocal action) {
    if (!Files.isDirectory(action.dir().localPath())) {
      fail(key, model, "LocalPathNotFound", ModelPlanner.URI_FIELD + ": directory " + action.dir().specPath()
          + " does not exist on node " + settings.nodeName(), null);
      return;
    }
    ready(key, model, action.dir(), null, "files already on the node at " + action.dir().specPath()
        + "; nothing copied");
  }

  private void pvc(BaseModelKey key, AgentModel model, AgentAction.UsePvc action) {
    String claim = action.namespace() + "/" + action.claim();
    PersistentVolumeClaim pvc = claims.apply(action.namespace(), action.claim());
    if (pvc == null) {
      fail(key, model, "PvcNotFound", ModelPlanner.URI_FIELD + ": PersistentVolumeClaim " + claim
          + " does not exist", null);
      return;
    }
    String phase = pvc.getStatus() == null ? null : pvc.getStatus().getPhase();
    if (!"Bound".equals(phase)) {
      String message = "PersistentVolumeClaim " + claim + " is " + (phase == null ? "not bound" : phase)
          + ", not Bound";
      if (!transientRetry(key, model, message, null)) {
        fail(key, model, "PvcNotBound", ModelPlanner.URI_FIELD + ": " + message, null);
      }
      return;
    }
    retries.remove(key);
    NodeReport report = AgentReports.ready(key.name(), model.storageUri(), null, null, clock.instant(),
        "the files are on PersistentVolumeClaim " + claim + " (path '" + action.subPath() + "'), which serving "
            + "pods mount; nothing is copied to this node");
    writer.publish(key, report);
    done.put(key, new Outcome(model.fingerprint(), NodeReport.READY, null));
    LOG.info("agent.ready model={} source=pvc claim={}", key, claim);
  }

  private void ready(BaseModelKey key, AgentModel model, ModelRoots.Resolved dir, DownloadProgress progress,
      String note) {
    JsonNode config = null;
    String metadataNote;
    if (model.skipConfigParsing()) {
      metadataNote = "metadata not read (" + AgentModel.SKIP_CONFIG_PARSING + ")";
    } else {
      try {
        ModelConfigInspector.Inspection inspection = ModelConfigInspector.inspect(dir.localPath());
        config = inspection.config();
        metadataNote = inspection.note();
      } catch (IOException | RuntimeException e) {
        metadataNote = "metadata not read: " + e.getMessage();
        LOG.warn("agent.metadata-unreadable model={} error=\"{}\"", key, e.getMessage());
      }
    }
    writer.publish(key, AgentReports.ready(key.name(), model.storageUri(), config, progress, clock.instant(),
        note + "; " + metadataNote));
    boolean downloaded = progress != null;
    done.put(key, new Outcome(model.fingerprint(), NodeReport.READY, downloaded ? dir : null));
    LOG.info("agent.ready model={} dir={} metadata=\"{}\"", key, dir.specPath(), metadataNote);
  }

  private void fail(BaseModelKey key, AgentModel model, String reason, String message, DownloadProgress progress) {
    retries.remove(key);
    NodeReport previous = writer.report(key);
    boolean same = previous != null && previous.failed() && reason.equals(previous.reason())
        && Objects.equals(message, previous.message()) && Objects.equals(model.storageUri(), previous.storageUri())
        && NodeReport.FAILED.equals(view.nodeLabels().get(key.labelKey()));
    if (!same) {
      writer.publish(key, AgentReports.failed(key.name(), model.storageUri(), reason, message, progress,
          clock.instant()));
      metrics.failure(reason);
    }
    done.put(key, new Outcome(model.fingerprint(), NodeReport.FAILED, null));
    LOG.warn("agent.failed model={} reason={} message=\"{}\"", key, reason, message);
  }

  private void remove(BaseModelKey key, String why, boolean gone) {
    NodeReport report = writer.report(key);
    boolean labelled = view.nodeLabels().containsKey(key.labelKey());
    Outcome outcome = done.remove(key);
    retries.remove(key);
    if (report != null || outcome != null) {
      ModelPlanner.downloadDir(lastKnown.get(key), settings.roots(), view.allModels())
          .ifPresent(dir -> cleaner.delete(key, dir));
      if (outcome != null && outcome.dir() != null) {
        cleaner.delete(key, outcome.dir());
      }
    }
    if (report != null || labelled) {
      writer.remove(key, labelled);
      LOG.info("agent.removed model={} why=\"{}\"", key, why);
    }
    if (gone) {
      lastKnown.remove(key);
    }
  }
}
