package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container's command line as the server would see it: command then args, {@code $(VAR)} references expanded the
 * way the kubelet does (from the container's plain and field-reference env), a {@code sh -c} / {@code bash -c} script
 * split into words (quotes, backslash continuations, {@code $VAR}/{@code ${VAR}}), and {@code --flag=value} split in
 * two.
 *
 * @param tokens the words, in order
 */
public record ContainerArgv(List<String> tokens) {
  private static final Pattern KUBE_REF = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_.-]*)\\)");
  private static final Pattern SHELL_REF =
      Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}|\\$([A-Za-z_][A-Za-z0-9_]*)");
  private static final Pattern FIELD_KEY = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)']");
  private static final Pattern PYTHON = Pattern.compile("(.*/)?python[0-9.]*");
  private static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "ash", "zsh");

  public ContainerArgv {
    tokens = List.copyOf(tokens);
  }

  /** The command line of {@code container} in {@code pod}. */
  public static ContainerArgv of(Pod pod, Container container) {
    Map<String, String> env = environment(pod, container);
    List<String> raw = new ArrayList<>();
    if (container.getCommand() != null) {
      raw.addAll(container.getCommand());
    }
    if (container.getArgs() != null) {
      raw.addAll(container.getArgs());
    }
    List<String> words = raw.stream().map(w -> expandKubernetes(w, env)).toList();
    int script = shellScriptIndex(words);
    if (script >= 0) {
      words = shellWords(words.get(script), env);
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (PYTHON.matcher(w).matches() && i + 2 < words.size() && "-m".equals(words.get(i + 1))) {
        out.add(words.get(i + 2)); // python3 -m sglang.launch_server: the module is the program
        i += 2;
        continue;
      }
      int eq = w.indexOf('=');
      if (w.startsWith("-") && eq > 1) {
        out.add(w.substring(0, eq));
        out.add(w.substring(eq + 1));
      } else {
        out.add(w);
      }
    }
    return new ContainerArgv(out);
  }

  /** The value after the last occurrence of any of {@code names}. */
  public Optional<String> value(String... names) {
    Optional<String> found = Optional.empty();
    for (int i = 0; i < tokens.size() - 1; i++) {
      if (Set.of(names).contains(tokens.get(i))) {
        found = Optional.of(tokens.get(i + 1));
      }
    }
    return found;
  }

  /** Every value after any of {@code names}, up to the next word starting with {@code -} (nargs=+ flags). */
  public List<String> values(String... names) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      if (Set.of(names).contains(tokens.get(i))) {
        for (int j = i + 1; j < tokens.size() && !tokens.get(j).startsWith("-"); j++) {
          out.add(tokens.get(j));
        }
      }
    }
    return out;
  }

  /** Whether any of {@code names} appears. */
  public boolean has(String... names) {
    return tokens.stream().anyMatch(Set.of(names)::contains);
  }

  /** The word right after {@code word} unless it is a flag (e.g. the model after {@code vllm serve}). */
  public Optional<String> after(String word) {
    int i = tokens.indexOf(word);
    return i >= 0 && i + 1 < tokens.size() && !tokens.get(i + 1).startsWith("-")
        ? Optional.of(tokens.get(i + 1)) : Optional.empty();
  }

  /** The first word, if it is not a flag. */
  public Optional<String> first() {
    return tokens.isEmpty() || tokens.get(0).startsWith("-") ? Optional.empty() : Optional.of(tokens.get(0));
  }

  /** The flags (words starting with {@code -}) not in {@code known}, each once, in order. */
  public List<String> flagsExcept(Set<String> known) {
    return tokens.stream().filter(t -> t.startsWith("-") && t.length() > 1 && !t.matches("-\\d.*"))
        .filter(t -> !known.contains(t)).distinct().toList();
  }

  /** The container's environment as the kubelet would set it, for the variables it can know without the API. */
  static Map<String, String> environment(Pod pod, Container container) {
    Map<String, String> env = new LinkedHashMap<>();
    if (container.getEnv() == null) {
      return env;
    }
    for (EnvVar var : container.getEnv()) {
      if (var.getValue() != null) {
        env.put(var.getName(), expandKubernetes(var.getValue(), env));
      } else if (var.getValueFrom() != null && var.getValueFrom().getFieldRef() != null) {
        fieldValue(pod, var.getValueFrom().getFieldRef().getFieldPath()).ifPresent(v -> env.put(var.getName(), v));
      }
    }
    return env;
  }

  static Optional<String> fieldValue(Pod pod, String path) {
    Matcher keyed = FIELD_KEY.matcher(path == null ? "" : path);
    if (keyed.matches()) {
      Map<String, String> map = "labels".equals(keyed.group(1)) ? pod.getMetadata().getLabels()
          : pod.getMetadata().getAnnotations();
      return Optional.ofNullable(map == null ? null : map.get(keyed.group(2)));
    }
    return Optional.ofNullable(switch (path == null ? "" : path) {
      case "metadata.name" -> pod.getMetadata().getName();
      case "metadata.namespace" -> pod.getMetadata().getNamespace();
      case "metadata.uid" -> pod.getMetadata().getUid();
      case "spec.nodeName" -> pod.getSpec().getNodeName();
      case "spec.serviceAccountName" -> pod.getSpec().getServiceAccountName();
      case "status.podIP" -> pod.getStatus() == null ? null : pod.getStatus().getPodIP();
      case "status.hostIP" -> pod.getStatus() == null ? null : pod.getStatus().getHostIP();
      default -> null;
    });
  }

  /** {@code $(VAR)} → its value when defined (else kept, as the kubelet does); {@code $$(VAR)} escapes. */
  static String expandKubernetes(String word, Map<String, String> env) {
    StringBuilder out = new StringBuilder();
    Matcher m = KUBE_REF.matcher(word);
    int last = 0;
    while (m.find()) {
      boolean escaped = m.start() > 0 && word.charAt(m.start() - 1) == '$';
      out.append(word, last, escaped ? m.start() - 1 : m.start());
      out.append(escaped || !env.containsKey(m.group(1)) ? m.group() : env.get(m.group(1)));
      last = m.end();
    }
    return out.append(word.substring(last)).toString();
  }

  private static int shellScriptIndex(List<String> words) {
    if (words.isEmpty()) {
      return -1;
    }
    String program = words.get(0).substring(words.get(0).lastIndexOf('/') + 1);
    if (!SHELLS.contains(program)) {
      return -1;
    }
    // The script follows the first option carrying c: -c, -lc, -ec, ...
    for (int i = 1; i + 1 < words.size() && words.get(i).startsWith("-"); i++) {
      if (!words.get(i).startsWith("--") && words.get(i).indexOf('c') > 0) {
        return i + 1;
      }
    }
    return -1;
  }

  /** Splits a shell script into words: quotes, backslash escapes and continuations, variables from {@code env}. */
  static List<String> shellWords(String script, Map<String, String> env) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    for (int i = 0; i < script.length(); i++) {
      char ch = script.charAt(i);
      if (ch == '\\' && i + 1 < script.length()) {
        char next = script.charAt(++i);
        if (next != '\n') {
          word.append(next);
          inWord = true;
        }
      } else if (ch == '\'') {
        int end = script.indexOf('\'', i + 1);
        end = end < 0 ? script.length() : end;
        word.append(script, i + 1, end);
        i = end;
        inWord = true;
      } else if (ch == '"') {
        int end = i + 1;
        while (end < script.length() && script.charAt(end) != '"') {
          end += script.charAt(end) == '\\' ? 2 : 1;
        }
        end = Math.min(end, script.length());
        word.append(expandShell(script.substring(i + 1, end).replace("\\\"", "\""), env));
        i = end;
        inWord = true;
      } else if (Character.isWhitespace(ch) || ch == ';' || ch == '&' || ch == '|') {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else if (ch == '$') {
        Matcher m = SHELL_REF.matcher(script).region(i, script.length());
        if (m.lookingAt()) {
          String name = m.group(1) != null ? m.group(1) : m.group(2);
          word.append(env.getOrDefault(name, ""));
          i = m.end() - 1;
        } else {
          word.append(ch);
        }
        inWord = true;
      } else {
        word.append(ch);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  private static String expandShell(String text, Map<String, String> env) {
    Matcher m = SHELL_REF.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2);
      m.appendReplacement(out, Matcher.quoteReplacement(env.getOrDefault(name, "")));
    }
    m.appendTail(out);
    return out.toString();
  }
}
