/*
 * The Java oracle of test/evidence/ground-truth-hand.ts: the JDK's own compiler attributes every
 * .java file of a checkout (com.sun.source / JavacTask, https://docs.oracle.com/en/java/javase/17/docs/api/jdk.compiler/com/sun/source/util/JavacTask.html)
 * and a tree walk maps each identifier, member select and method reference to the element javac
 * resolved it to (Trees.getElement). Run with the source launcher, no build:
 *
 *   printf 'src/main/java/a/B.java\tB.method\n' | java test/evidence/ground-truth-javac.java <repo-dir>
 *
 * Input (stdin): one target per line, `path<TAB>qualified<TAB>kind` — `Outer.Inner` for a type
 * (kind class, interface, enum), `Outer.Inner.member` for a method (kind method: every overload)
 * or field (kind field), as find_references takes them; a field and a method of one name are two
 * targets.
 * Output (stdout): `path<TAB>qualified<TAB>kind<TAB>usePath:line` per use (kind `type`, `method`
 * or `field`), the line being the one where the
 * used name is written. Missing dependencies (test libraries) only leave their own names
 * unresolved: attribution goes on after errors (`-XDshould-stop.ifError=FLOW`). Constructors are
 * not targets; `new C()` is a use of the type C.
 */
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class GroundTruthJavac {
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        Set<String> wanted = new HashSet<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                String[] f = line.strip().split("\t");
                if (f.length == 3) wanted.add(f[0] + "\t" + f[1] + "\t" + (f[2].equals("method") || f[2].equals("field") ? f[2] : "type"));
            }
        }
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
                .filter(p -> root.relativize(p).toString().chars().noneMatch(c -> c == '\\'))
                .filter(p -> !root.relativize(p).toString().startsWith("."))
                .forEach(files::add);
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        Iterable<? extends JavaFileObject> units = fm.getJavaFileObjectsFromPaths(files);
        List<String> options = List.of("-proc:none", "-implicit:none", "-nowarn", "-Xmaxerrs", "1000000", "-XDshould-stop.ifError=FLOW", "-encoding", "UTF-8");
        JavacTask task = (JavacTask) compiler.getTask(null, fm, d -> { }, options, null, units);
        List<CompilationUnitTree> cus = new ArrayList<>();
        task.parse().forEach(cus::add);
        task.analyze();
        Trees trees = Trees.instance(task);
        SourcePositions pos = trees.getSourcePositions();

        // Declarations of the targets: element -> "path\tqualified".
        Map<Element, String> targets = new HashMap<>();
        for (CompilationUnitTree cu : cus) {
            String rel = root.relativize(Path.of(cu.getSourceFile().toUri())).toString();
            new TreePathScanner<Void, List<String>>() {
                @Override
                public Void visitClass(ClassTree node, List<String> outer) {
                    List<String> chain = new ArrayList<>(outer);
                    chain.add(node.getSimpleName().toString());
                    mark(getCurrentPath(), String.join(".", chain), "type");
                    for (Tree member : node.getMembers()) {
                        TreePath p = new TreePath(getCurrentPath(), member);
                        if (member instanceof MethodTree m && !m.getName().contentEquals("<init>")) mark(p, String.join(".", chain) + "." + m.getName(), "method");
                        else if (member instanceof VariableTree v) mark(p, String.join(".", chain) + "." + v.getName(), "field");
                    }
                    return super.visitClass(node, chain);
                }

                @Override
                public Void visitMethod(MethodTree node, List<String> outer) {
                    return super.visitMethod(node, new ArrayList<>(List.of("<local>")));
                }

                private void mark(TreePath p, String qualified, String kind) {
                    if (!wanted.contains(rel + "\t" + qualified + "\t" + kind)) return;
                    Element e = trees.getElement(p);
                    if (e != null) targets.put(e, rel + "\t" + qualified + "\t" + kind);
                }
            }.scan(cu, List.of());
        }

        Map<String, Set<String>> out = new HashMap<>();
        for (CompilationUnitTree cu : cus) {
            String rel = root.relativize(Path.of(cu.getSourceFile().toUri())).toString();
            new TreePathScanner<Void, Void>() {
                private void use(Tree node, long namePos) {
                    Element e = trees.getElement(getCurrentPath());
                    if (e == null) return;
                    if (e.getKind() == ElementKind.CONSTRUCTOR) e = e.getEnclosingElement();
                    String key = targets.get(e);
                    if (key == null || namePos < 0) return;
                    out.computeIfAbsent(key, k -> new TreeSet<>()).add(rel + ":" + cu.getLineMap().getLineNumber(namePos));
                }

                @Override
                public Void visitVariable(VariableTree node, Void v) {
                    // An enum constant's implicit `new E(…)` writes no name: only its arguments and body are uses.
                    Element e = trees.getElement(getCurrentPath());
                    if (e != null && e.getKind() == ElementKind.ENUM_CONSTANT && node.getInitializer() instanceof NewClassTree init) {
                        scan(node.getModifiers(), v);
                        TreePath initPath = new TreePath(getCurrentPath(), init);
                        for (Tree arg : init.getArguments()) scan(new TreePath(initPath, arg), v);
                        if (init.getClassBody() != null) scan(new TreePath(initPath, init.getClassBody()), v);
                        return null;
                    }
                    return super.visitVariable(node, v);
                }

                @Override
                public Void visitIdentifier(IdentifierTree node, Void v) {
                    use(node, pos.getStartPosition(cu, node));
                    return super.visitIdentifier(node, v);
                }

                @Override
                public Void visitMemberSelect(MemberSelectTree node, Void v) {
                    long end = pos.getEndPosition(cu, node);
                    use(node, end < 0 ? -1 : end - node.getIdentifier().length());
                    return super.visitMemberSelect(node, v);
                }

                @Override
                public Void visitMemberReference(MemberReferenceTree node, Void v) {
                    long end = pos.getEndPosition(cu, node);
                    use(node, end < 0 ? -1 : end - node.getName().length());
                    return super.visitMemberReference(node, v);
                }
            }.scan(cu, null);
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Set<String>> e : out.entrySet()) for (String u : e.getValue()) sb.append(e.getKey()).append('\t').append(u).append('\n');
        System.out.print(sb);
    }
}
