package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// The lsp mode (lvbench lsp) measures `lifetimevet lsp` as an editor sees
// it, over stdio with a small JSON-RPC client: the time from opening a
// file of a package the server has not seen (empty GOCACHE and
// LIFETIMEVET_CACHE) to its diagnostics, beside the standalone command's
// cold run of the same package, and the time from each of N saves (a
// comment appended to the file, then didSave) to the file's diagnostics.
//
// Each package is analysed in an editable copy of its module (out of the
// module cache, into WORK/lsp), as the editor would open it: the module
// is the main module, and the go command runs in the package's directory.

// LSPPackages are the packages the lsp mode measures by default: the cgo
// packages of two corpus modules. Not go-sqlite3's: each save of a file of
// a cgo package reruns cgo, whose link step compiles every C file of the
// package, and go-sqlite3's are the 8 MB SQLite amalgamation (about a
// minute of gcc per save on this machine, for any tool).
var LSPPackages = []string{"github.com/yalue/onnxruntime_go", "github.com/NVIDIA/go-nvml/pkg/nvml"}

// An LSPResult is the lsp mode's measurement of one package.
type LSPResult struct {
	Package string
	Module  string
	File    string // the file opened and saved, in the copy
	// Cold is the standalone command's run on the package (lifetimevet
	// .) in its directory, with empty caches.
	Cold Sample
	// Open is the time from didOpen to the file's diagnostics, with
	// empty caches; OpenCPU the server's CPU time meanwhile (with the go
	// commands it waited for).
	Open      time.Duration
	OpenCPU   time.Duration
	OpenDiags int
	// Saves are the times from each didSave to the file's diagnostics;
	// SaveCPU the server's CPU time over all of them.
	Saves     []time.Duration
	SaveCPU   time.Duration
	SaveDiags []int
	// List are the times of the go command's part of a save of a cgo
	// file: after a new comment, go list as the server runs it then (-e
	// -json -compiled -find PKG: cgo's rerun on the package alone), in
	// the package's directory, with the server's caches; none for a save
	// of another Go file, which runs no go command.
	List []time.Duration
	// ServerRSS is the server's peak RSS (VmHWM) at the end.
	ServerRSS int64
	Start     time.Time
	End       time.Time
	// OthersCPU is the CPU time the rest of the machine used while the
	// server ran (its wall time minus nothing: see Load).
	OthersCPU time.Duration
}

// An LSPBench is the lsp mode's measurement.
type LSPBench struct {
	Results []LSPResult
	Saves   int
	// File is the kind of file saved: "cgo" (the package's first file
	// that imports "C") or "go" (its first Go file that does not).
	File    string
	LoadAvg [2]string
}

// LSP measures each package: the standalone cold run, then the server's
// open and saves.
func (e *Env) LSP(pkgs []string, saves int, file string) (*LSPBench, error) {
	if err := e.cgoModule(); err != nil {
		return nil, err
	}
	b := &LSPBench{Saves: saves, File: file}
	b.LoadAvg[0] = loadAvg()
	logs := filepath.Join(e.Work, "logs")
	if err := os.MkdirAll(logs, 0o777); err != nil {
		return nil, err
	}
	for _, pkg := range pkgs {
		r, err := e.lspPackage(pkg, saves, file, logs)
		if err != nil {
			return nil, fmt.Errorf("lsp %s: %v", pkg, err)
		}
		b.Results = append(b.Results, r)
	}
	b.LoadAvg[1] = loadAvg()
	return b, nil
}

func (e *Env) lspPackage(pkg string, saves int, kind, logs string) (LSPResult, error) {
	r := LSPResult{Package: pkg}
	info, err := output(e.CorpusDir, e.RunEnv, "go", "list", "-f", "{{.Module.Path}}|{{.Module.Dir}}|{{.Dir}}|{{join .CgoFiles \",\"}}|{{join .GoFiles \",\"}}|{{join .TestGoFiles \",\"}}", pkg)
	if err != nil {
		return r, err
	}
	f := strings.Split(info, "|")
	if len(f) != 6 {
		return r, fmt.Errorf("go list: %q", info)
	}
	r.Module = f[0]
	modDir, pkgDir := f[1], f[2]
	copyDir := filepath.Join(e.Work, "lsp", strings.NewReplacer("/", "_", "@", "_").Replace(r.Module))
	if err := copyTree(modDir, copyDir); err != nil {
		return r, err
	}
	dir := filepath.Join(copyDir, strings.TrimPrefix(pkgDir, modDir))
	// the file saved: a cgo file, whose save reruns cgo, or another Go
	// file, whose save needs no go command (GoFiles has no cgo file)
	first := strings.Split(f[3], ",")[0]
	if kind == "go" || first == "" {
		first = strings.Split(f[4], ",")[0]
		if first == "" {
			first = strings.Split(f[5], ",")[0]
		}
	}
	if first == "" {
		return r, fmt.Errorf("%s has no %s file", pkg, kind)
	}
	cgoSave := slices.Contains(strings.Split(f[3], ","), first)
	r.File = filepath.Join(dir, first)
	t, err := newToucher(r.File)
	if err != nil {
		return r, err
	}
	defer t.restore()
	name := strings.NewReplacer("/", "_").Replace(pkg)

	// the standalone command, cold
	cache, err := os.MkdirTemp(e.Work, "lsp-cache-")
	if err != nil {
		return r, err
	}
	fmt.Fprintf(e.Log, "lsp %s: standalone, cold\n", pkg)
	r.Cold, err = runLogged(dir, []string{e.LifetimeVet, "."}, cacheEnv(e.RunEnv, cache), filepath.Join(logs, "lsp-"+name+"-standalone.log"))
	os.RemoveAll(cache)
	if err != nil {
		return r, err
	}

	// the server, cold
	cache, err = os.MkdirTemp(e.Work, "lsp-cache-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(cache)
	logFile, err := os.Create(filepath.Join(logs, "lsp-"+name+"-server.log"))
	if err != nil {
		return r, err
	}
	defer logFile.Close()
	busy0, _ := machineBusy()
	r.Start = time.Now()
	c, err := startServer(e.LifetimeVet, dir, cacheEnv(e.RunEnv, cache), logFile)
	if err != nil {
		return r, err
	}
	defer c.close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := c.conn.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": lspURI(copyDir), "capabilities": map[string]any{}}, nil); err != nil {
		return r, fmt.Errorf("initialize: %v", err)
	}
	c.conn.Notify(ctx, "initialized", map[string]any{})
	uri := lspURI(r.File)
	text, err := os.ReadFile(r.File)
	if err != nil {
		return r, err
	}
	fmt.Fprintf(e.Log, "lsp %s: open %s\n", pkg, filepath.Base(r.File))
	cpu0 := c.cpu()
	start := time.Now()
	c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(text)}})
	n, at, err := c.wait(uri, 10*time.Minute)
	if err != nil {
		return r, fmt.Errorf("open: %v", err)
	}
	r.Open, r.OpenDiags, r.OpenCPU = at.Sub(start), n, c.cpu()-cpu0
	cpu0 = c.cpu()
	for i := 0; i < saves; i++ {
		if err := t.touch(); err != nil {
			return r, err
		}
		start := time.Now()
		c.conn.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
		n, at, err := c.wait(uri, 5*time.Minute)
		if err != nil {
			return r, fmt.Errorf("save %d: %v", i+1, err)
		}
		r.Saves = append(r.Saves, at.Sub(start))
		r.SaveDiags = append(r.SaveDiags, n)
		fmt.Fprintf(e.Log, "lsp %s: save %d: %.2fs, %d diagnostics\n", pkg, i+1, at.Sub(start).Seconds(), n)
	}
	r.SaveCPU = c.cpu() - cpu0
	r.ServerRSS = c.peakRSS()
	r.End = time.Now()
	if busy1, ok := machineBusy(); ok {
		r.OthersCPU = max(busy1-busy0-r.OpenCPU-r.SaveCPU, 0)
	}
	c.conn.Call(ctx, "shutdown", nil, nil)
	c.conn.Notify(ctx, "exit", nil)
	// the go command's part of a save, on its own: for a cgo file, cgo's
	// rerun through go list on the package alone, as the server runs it
	// (lspmeta.go); another Go file's save runs no go command
	for i := 0; cgoSave && i < min(saves, 5); i++ {
		if err := t.touch(); err != nil {
			return r, err
		}
		cmd := exec.Command("go", "list", "-e", "-json", "-compiled", "-find", "--", pkg)
		cmd.Dir = dir
		cmd.Env = cacheEnv(e.RunEnv, cache)
		cmd.Stdout = io.Discard
		sample, err := Measure(cmd)
		if err != nil {
			return r, err
		}
		r.List = append(r.List, sample.Wall)
	}
	return r, nil
}

// lspURI is a file's file: URI.
func lspURI(name string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(name)}).String()
}

// A lspServer is `lifetimevet lsp` and the client's side of its
// connection.
type lspServer struct {
	cmd  *exec.Cmd
	conn *jsonrpc2.Conn
	pubs chan lspPub
	log  io.Writer
	mu   sync.Mutex
}

// An lspPub is a publishDiagnostics notification as it arrived.
type lspPub struct {
	uri string
	n   int
	at  time.Time
}

type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error { p.WriteCloser.Close(); return p.ReadCloser.Close() }

func startServer(lifetimevet, dir string, env []string, log io.Writer) (*lspServer, error) {
	cmd := exec.Command(lifetimevet, "lsp")
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stderr = log
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &lspServer{cmd: cmd, pubs: make(chan lspPub, 10000), log: log}
	handler := jsonrpc2.HandlerWithError(func(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Params == nil {
			return nil, nil
		}
		switch req.Method {
		case "textDocument/publishDiagnostics":
			at := time.Now()
			var p struct {
				URI         string            `json:"uri"`
				Diagnostics []json.RawMessage `json:"diagnostics"`
			}
			if err := json.Unmarshal(*req.Params, &p); err == nil {
				s.pubs <- lspPub{p.URI, len(p.Diagnostics), at}
			}
		case "window/logMessage":
			var p struct {
				Message string `json:"message"`
			}
			json.Unmarshal(*req.Params, &p)
			s.mu.Lock()
			fmt.Fprintf(log, "logMessage: %s\n", p.Message)
			s.mu.Unlock()
		}
		return nil, nil
	})
	s.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(pipes{out, in}, jsonrpc2.VSCodeObjectCodec{}), handler)
	return s, nil
}

// wait waits for the next diagnostics of uri and returns their count and
// arrival.
func (s *lspServer) wait(uri string, timeout time.Duration) (int, time.Time, error) {
	deadline := time.After(timeout)
	for {
		select {
		case p := <-s.pubs:
			if p.uri == uri {
				return p.n, p.at, nil
			}
		case <-deadline:
			return 0, time.Time{}, fmt.Errorf("no diagnostics for %s within %v", uri, timeout)
		case <-s.conn.DisconnectNotify():
			return 0, time.Time{}, fmt.Errorf("the server closed the connection")
		}
	}
}

// cpu returns the server's CPU time so far, with that of the children it
// waited for (the go commands): utime, stime, cutime, cstime of
// /proc/PID/stat.
func (s *lspServer) cpu() time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3: utime..cstime are fields 14 to 17
	if len(f) < 15 {
		return 0
	}
	var ticks int64
	for _, x := range f[11:15] {
		n, _ := strconv.ParseInt(x, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * clockTick
}

// peakRSS returns the server's VmHWM in bytes.
func (s *lspServer) peakRSS() int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		var kb int64
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
			return kb * 1024
		}
	}
	return 0
}

func (s *lspServer) close() {
	s.conn.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// Save writes the measurement and the header as JSON.
func (b *LSPBench) Save(file string, h Header) error {
	data, err := json.MarshalIndent(struct {
		Header Header
		LSP    *LSPBench
	}{h, b}, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(data, '\n'), 0o666)
}

// WriteMarkdown writes the lsp mode's table.
func (b *LSPBench) WriteMarkdown(w io.Writer, h Header) {
	fmt.Fprintf(w, "## lifetimevet lsp: open and save to diagnostics\n\n")
	fmt.Fprintf(w, "- machine: %s\n", h.Machine)
	fmt.Fprintf(w, "- Go: %s\n", h.GoVersion)
	if len(b.Results) > 0 {
		fmt.Fprintf(w, "- date: %s to %s\n", b.Results[0].Start.UTC().Format("2006-01-02 15:04"), b.Results[len(b.Results)-1].End.UTC().Format("15:04 MST"))
	}
	fmt.Fprintf(w, "- lifetimevet: %s\n", h.LifetimeVet)
	var others, wall time.Duration
	for _, r := range b.Results {
		others += r.OthersCPU
		wall += r.End.Sub(r.Start)
	}
	if wall > 0 {
		fmt.Fprintf(w, "- load from other work while the servers ran: %.2f processors on average, out of %d; load average %s at the start, %s at the end\n",
			others.Seconds()/wall.Seconds(), h.Machine.CPUs, orDash(b.LoadAvg[0]), orDash(b.LoadAvg[1]))
	}
	fmt.Fprintf(w, "- environment: %s\n", RunEnvSummary)
	fmt.Fprintf(w, "- command: `%s`\n\n", h.Command)
	fmt.Fprintf(w, "Each package in an editable copy of its module (the main module; the server and the standalone command run in the package's directory). standalone cold: `lifetimevet .` with empty GOCACHE and LIFETIMEVET_CACHE. open: didOpen of the file (%s) to its publishDiagnostics, with empty caches (a package the server has not seen). save: a new comment appended to the file, didSave, to its publishDiagnostics, %d times one after the other (p50: the median). server CPU: the server's and its go commands' user+system time. go list after a save: the go command's part of a save of a cgo file on its own (a new comment, then the go list the server runs, go list -compiled -find PKG, which reruns cgo on the package alone), up to 5 times after the server stopped; a save of another Go file runs no go command.\n\n", fileKind(b.File), b.Saves)
	fmt.Fprintf(w, "| package | file | standalone cold wall (s) | standalone cold CPU (s) | open→diagnostics (s) | open ×standalone | server CPU at open (s) | save→diagnostics p50 (s) | max (s) | min (s) | server CPU per save (s) | go list after a save, p50 (s) | diagnostics | server peak RSS (MiB) |\n")
	fmt.Fprintf(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range b.Results {
		ratio := "-"
		if r.Cold.Wall > 0 {
			ratio = fmt.Sprintf("%.2f", r.Open.Seconds()/r.Cold.Wall.Seconds())
		}
		var p50, mx, mn, perSave float64
		if len(r.Saves) > 0 {
			p50, mx, mn = Median(r.Saves).Seconds(), slices.Max(r.Saves).Seconds(), slices.Min(r.Saves).Seconds()
			perSave = r.SaveCPU.Seconds() / float64(len(r.Saves))
		}
		diags := fmt.Sprint(r.OpenDiags)
		if len(r.SaveDiags) > 0 && slices.Min(r.SaveDiags) != r.OpenDiags || len(r.SaveDiags) > 0 && slices.Max(r.SaveDiags) != r.OpenDiags {
			diags += fmt.Sprintf(" (saves %d–%d)", slices.Min(r.SaveDiags), slices.Max(r.SaveDiags))
		}
		list := "-"
		if len(r.List) > 0 {
			list = fmt.Sprintf("%.2f", Median(r.List).Seconds())
		}
		fmt.Fprintf(w, "| %s | %s | %.2f | %.2f | %.2f | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %s | %d |\n",
			r.Package, filepath.Base(r.File), r.Cold.Wall.Seconds(), r.Cold.CPU.Seconds(), r.Open.Seconds(), ratio, r.OpenCPU.Seconds(),
			p50, mx, mn, perSave, list, diags, r.ServerRSS>>20)
	}
	fmt.Fprintln(w)
}

// fileKind describes the -lsp-file choice.
func fileKind(kind string) string {
	if kind == "go" {
		return "the package's first Go file that does not import \"C\", a test file if it has no other"
	}
	return "the package's first file that imports \"C\""
}
