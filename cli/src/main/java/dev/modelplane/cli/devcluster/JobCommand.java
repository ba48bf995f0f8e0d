package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Container;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The local process of one job container: its command line (command then args, {@code $(VAR)} expanded, mount paths
 * made local, Service URLs pointed at endpoints), environment and working directory.
 *
 * <ul>
 *   <li>genai-bench: the program is looked up on a PATH that starts with the cache's genai-bench environment (an
 *   empty command is the image's entrypoint, {@code genai-bench}); a {@code --model-tokenizer} that is not a
 *   directory with {@code tokenizer.json} (a Hugging Face id, or a model directory without one) becomes the
 *   simulator-counting tokenizer.</li>
 *   <li>modelplane {@code bench}: this distribution's main class with the container's args; {@code bench summarize}
 *   writes its termination message to the container's file.</li>
 * </ul>
 *
 * @param command the command line
 * @param env the whole environment
 * @param workDir the working directory
 */
record JobCommand(List<String> command, Map<String, String> env, Path workDir) {
  /** The flag of {@code bench summarize} naming its termination message file. */
  static final String TERMINATION_LOG_FLAG = "--termination-log";
  static final String TOKENIZER_FLAG = "--model-tokenizer";
  private static final java.util.regex.Pattern SECRET_FLAG =
      java.util.regex.Pattern.compile("(?i)(key|token|secret|password|credential)");

  JobCommand {
    command = List.copyOf(command);
    env = Map.copyOf(env);
  }

  /** What the machine provides: genai-bench's {@code bin}, the tokenizer, the java command of this distribution. */
  record Tools(Path genaiBenchBin, Path tokenizer, List<String> java, String hostPath) {
  }

  /**
   * The process of {@code container}.
   *
   * @param containerEnv the container's environment ({@link JobEnv})
   * @param mounts its paths on this machine
   * @param urls the Service URL mapping
   * @param scratch its own directory (working directory unless it names a mounted one)
   */
  static JobCommand of(Container container, JobPods.Program program, Map<String, String> containerEnv,
      LocalMounts mounts, ServiceUrls urls, Path scratch, Tools tools, String podName) {
    UnaryOperator<String> local = w -> urls.rewrite(mounts.rewrite(w));
    List<String> words = new ArrayList<>();
    if (program == JobPods.Program.MODELPLANE_BENCH) {
      words.addAll(tools.java());
      container.getArgs().forEach(a -> words.add(local.apply(ContainerArgv.expandKubernetes(a, containerEnv))));
      if (words.size() > tools.java().size() + 1 && "summarize".equals(words.get(tools.java().size() + 1))
          && !words.contains(TERMINATION_LOG_FLAG)) {
        words.addAll(List.of(TERMINATION_LOG_FLAG, mounts.terminationFile().toString()));
      }
    } else {
      List<String> raw = new ArrayList<>();
      if (container.getCommand() == null || container.getCommand().isEmpty()) {
        raw.add("genai-bench");
      } else {
        raw.addAll(container.getCommand());
      }
      if (container.getArgs() != null) {
        raw.addAll(container.getArgs());
      }
      raw.forEach(w -> words.add(local.apply(ContainerArgv.expandKubernetes(w, containerEnv))));
      tokenizer(words, tools.tokenizer());
    }
    Map<String, String> env = new LinkedHashMap<>();
    String path = program == JobPods.Program.GENAI_BENCH
        ? tools.genaiBenchBin() + File.pathSeparator + tools.hostPath() : tools.hostPath();
    env.put("PATH", path);
    env.put("HOME", scratch.toString());
    env.put("TMPDIR", scratch.toString());
    env.put("HOSTNAME", podName);
    env.put("LANG", "C.UTF-8");
    containerEnv.forEach((k, v) -> env.put(k, local.apply(v)));
    env.putAll(JobEnv.OFFLINE);
    if (program == JobPods.Program.GENAI_BENCH && !words.isEmpty()) {
      words.set(0, resolve(words.get(0), env.get("PATH")));
    }
    Path workDir = container.getWorkingDir() == null || container.getWorkingDir().isEmpty() ? scratch
        : mounts.map(container.getWorkingDir()).orElse(scratch);
    return new JobCommand(words, env, workDir);
  }

  /** The command line for logs: the value of a flag naming a key, token, secret or password is hidden. */
  List<String> redacted() {
    List<String> out = new ArrayList<>(command);
    for (int i = 0; i < out.size(); i++) {
      String w = out.get(i);
      int eq = w.indexOf('=');
      String flag = w.startsWith("-") && eq > 1 ? w.substring(0, eq) : w;
      if (!w.startsWith("-") || !SECRET_FLAG.matcher(flag).find()) {
        continue;
      }
      if (eq > 1) {
        out.set(i, flag + "=***");
      } else if (i + 1 < out.size()) {
        out.set(++i, "***");
      }
    }
    return out;
  }

  /** Points {@code --model-tokenizer} at {@code tokenizer} unless it names a directory with tokenizer.json. */
  static void tokenizer(List<String> words, Path tokenizer) {
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (TOKENIZER_FLAG.equals(w) && i + 1 < words.size()) {
        if (!hasTokenizer(words.get(i + 1))) {
          words.set(i + 1, tokenizer.toString());
        }
      } else if (w.startsWith(TOKENIZER_FLAG + "=") && !hasTokenizer(w.substring(TOKENIZER_FLAG.length() + 1))) {
        words.set(i, TOKENIZER_FLAG + "=" + tokenizer);
      }
    }
  }

  private static boolean hasTokenizer(String value) {
    return value.startsWith("/") && Files.isRegularFile(Path.of(value).resolve("tokenizer.json"));
  }

  /** {@code program} found on {@code path} (as a shell would), or as it is when it has a slash or is not found. */
  static String resolve(String program, String path) {
    if (program.contains("/")) {
      return program;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
      if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
        return candidate.toString();
      }
    }
    return program;
  }
}
