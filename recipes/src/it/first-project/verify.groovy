// After the Maven build (package exec:exec) of the README's recipe: its run printed both answers; then the same
// sources compiled as the README's other recipes say, with nothing but the processor jar on the processor path,
// under -Xlint:all -Werror, and each program run again.

def log = new File(basedir, 'build.log').text
['fib(22) on 1 node: 17711 PASS', 'fib(22) on 2 nodes: 17711 PASS'].each {
    if (!log.contains(it)) throw new AssertionError("the Maven build's run did not print `$it`: see $basedir/build.log")
}

// The README's Maven recipe is this pom's, word for word (the pom as built: its @...@ versions filled in).
def recipeOf = { String text, String what ->
    def begin = text.indexOf('<!-- recipe: begin -->')
    def end = text.indexOf('<!-- recipe: end -->')
    if (begin < 0 || end < begin) throw new AssertionError("no `<!-- recipe: begin/end -->` markers in $what")
    text.substring(begin + '<!-- recipe: begin -->'.length(), end).readLines()*.trim().findAll { it }
}
def readmeText = new File(readme).text
def xmlStart = readmeText.indexOf('```xml\n  <!-- recipe: begin -->')
if (xmlStart < 0) throw new AssertionError("the README's Maven recipe (```xml, then <!-- recipe: begin -->) is not in $readme")
def inReadme = recipeOf(readmeText.substring(xmlStart, readmeText.indexOf('```\n', xmlStart + 6)), readme)
def inPom = recipeOf(new File(basedir, 'pom.xml').text, 'the sample pom')
if (inReadme != inPom) {
    throw new AssertionError("the README's Maven recipe differs from the sample project's pom, which the build tested:\n"
        + "README:\n${inReadme.join('\n')}\npom:\n${inPom.join('\n')}")
}

def repo = localRepositoryPath
def jar = { String group, String artifact, String version ->
    def file = new File(repo, "${group.replace('.', '/')}/$artifact/$version/$artifact-${version}.jar")
    if (!file.isFile()) throw new AssertionError("not in the sample's local repository: $file")
    file.path
}
def processor = jar('org.divvy', 'divvy-processor', divvyVersion)

// The processor's installed pom is the dependency-reduced one: JavaPoet is inside the jar, not a dependency (if it
// were, the Maven build above would have fetched it and passed anyway).
def processorPom = new File(processor.replaceAll(/\.jar$/, '.pom'))
def pomDocument = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(processorPom)
def dependencyIds = []
def projectChildren = pomDocument.documentElement.childNodes
for (int i = 0; i < projectChildren.length; i++) {
    def child = projectChildren.item(i)
    if (child.nodeName == 'dependencies') {
        def ids = child.getElementsByTagName('artifactId')
        for (int j = 0; j < ids.length; j++) dependencyIds << ids.item(j).textContent.trim()
    }
}
if (!dependencyIds.contains('divvy-annotations') || dependencyIds.any { it.contains('javapoet') }) {
    throw new AssertionError("the installed processor pom should name divvy-annotations and not JavaPoet: $dependencyIds ($processorPom)")
}
def libraries = [jar('org.divvy', 'divvy-annotations', divvyVersion), jar('org.divvy', 'divvy-runtime-aeron', divvyVersion),
                 jar('org.agrona', 'agrona', agronaVersion), jar('io.aeron', 'aeron-client', aeronVersion),
                 jar('io.aeron', 'aeron-driver', aeronVersion)].join(File.pathSeparator)
def bin = new File(System.getProperty('java.home'), 'bin').path
def sources = ['src/main/java/app/Fib.java', 'src/main/java/app/Main.java']

def run = { String what, List<String> command ->
    def process = new ProcessBuilder(command.collect { it.toString() }).directory(basedir).redirectErrorStream(true).start()
    def output = process.inputStream.text
    if (!process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly()
        throw new AssertionError("$what did not end within 120 s: ${command.join(' ')}\n$output")
    }
    println "recipes: $what: ${command.join(' ')}\n$output"
    if (process.exitValue() != 0) throw new AssertionError("$what exited ${process.exitValue()}: ${command.join(' ')}\n$output")
    output
}
def answers = { String what, String output ->
    ['fib(22) on 1 node: 17711 PASS', 'fib(22) on 2 nodes: 17711 PASS'].each {
        if (!output.contains(it)) throw new AssertionError("$what did not print `$it`:\n$output")
    }
}

// Plain javac on the class path: the processor jar alone on -processorpath (JavaPoet is inside it).
run('plain javac', ["$bin/javac", '-Xlint:all', '-Werror', '-processorpath', processor, '-classpath', libraries,
                    '-s', 'target/javac/generated', '-d', 'target/javac/classes'] + sources)
answers('the plain javac build', run('its run', ["$bin/java", '--add-opens', 'java.base/jdk.internal.misc=ALL-UNNAMED',
    '-classpath', "target/javac/classes${File.pathSeparator}$libraries", 'app.Main']))

// A named module: the runtime and Aeron on the module path, the processor on the processor module path, and
// the --add-opens form for Agrona as the automatic module org.agrona.
run('javac, a named module', ["$bin/javac", '-Xlint:all', '-Werror', '--processor-module-path', processor,
                              '--module-path', libraries, '-s', 'target/module/generated', '-d', 'target/module/classes',
                              'module/module-info.java'] + sources)
answers('the named module', run('its run', ["$bin/java", '--add-opens', 'java.base/jdk.internal.misc=org.agrona',
    '--module-path', "target/module/classes${File.pathSeparator}$libraries", '--module', 'app/app.Main']))
true
