/* Twirls of Action's legal-twirl generator, compiled (see envs/twirls/rules.py).
 *
 * twirl_mask(mine, theirs, size, out) -> int
 *
 * Writes the legal twirls of the side owning the bitboard ``mine`` into the
 * first size*size*32 bytes of ``out`` (1 legal, 0 not) and returns how many
 * there are. The same legal set as rules.Tables.twirl_sets / sets_to_mask,
 * which stay the pure-Python fallback and reference:
 *   action = (origin*8 + d)*4 + r, cell = rank*size + file; d = direction
 *   origin -> pivot (N, NE, E, SE, S, SW, W, NW; north = higher rank);
 *   r = 0..3 turns pivot -> origin by -90, -45, +45, +90 degrees (+ =
 *   clockwise) to give pivot -> destination; the destination lies at the
 *   pivot's distance from the pivot. Legal when the first stone seen from the
 *   origin towards d is an enemy (the pivot), the destination is on the board
 *   and empty, and no stone stands between origin and destination.
 *
 * Plain C API, no dependencies. Bad input raises TypeError / ValueError /
 * BufferError naming the argument.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_SIZE 9
#define MAX_CELLS (MAX_SIZE * MAX_SIZE)

/* (dfile, drank) of the directions N, NE, E, SE, S, SW, W, NW */
static const int VF[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int VR[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int TURNS[4] = {-2, -1, 1, 2};  /* in steps of 45 degrees, + = clockwise */

/* per twirl d*4 + r: unit step origin -> destination and its length per unit of pivot distance */
static int dest_f[32], dest_r[32], dest_len[32];
static PyObject *sixty_four;  /* the int 64, for bitboard >> 64 */

static void
init_turns(void)
{
    for (int d = 0; d < 8; d++) {
        int back = (d + 4) % 8;  /* pivot -> origin */
        for (int k = 0; k < 4; k++) {
            int out = (back + TURNS[k] + 8) % 8;  /* pivot -> destination */
            int wf = VF[out] - VF[back], wr = VR[out] - VR[back];
            int m = abs(wf) > abs(wr) ? abs(wf) : abs(wr);
            dest_f[d * 4 + k] = wf / m;
            dest_r[d * 4 + k] = wr / m;
            dest_len[d * 4 + k] = m;
        }
    }
}

/* A bitboard (a non-negative int below 2**cells) as two 64-bit halves; -1 with an exception. */
static int
read_bitboard(PyObject *obj, const char *name, int size, uint64_t *lo, uint64_t *hi)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "twirl_mask: %s must be an int bitboard, not %.100s",
                     name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int cells = size * size;
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (small == -1 && PyErr_Occurred())
        return -1;
    if (overflow == 0) {  /* fits in 63 bits and a sign */
        if (small < 0)
            goto out_of_range;
        *lo = (uint64_t)small;
        *hi = 0;
    } else {
        if (overflow < 0)
            goto out_of_range;
        *lo = PyLong_AsUnsignedLongLongMask(obj);
        if (*lo == (uint64_t)-1 && PyErr_Occurred())
            return -1;
        PyObject *high = PyNumber_Rshift(obj, sixty_four);
        if (high == NULL)
            return -1;
        *hi = PyLong_AsUnsignedLongLong(high);
        Py_DECREF(high);
        if (*hi == (uint64_t)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError))
                return -1;
            PyErr_Clear();
            goto out_of_range;
        }
    }
    if (cells <= 64 ? (*hi != 0 || (cells < 64 && *lo >> cells)) : (*hi >> (cells - 64)) != 0)
        goto out_of_range;
    return 0;
out_of_range:
    PyErr_Format(PyExc_ValueError,
                 "twirl_mask: %s must be a bitboard of the %dx%d board (an int from 0 to 2**%d - 1)",
                 name, size, size, cells);
    return -1;
}

static PyObject *
twirl_mask(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "twirl_mask(mine, theirs, size, out) takes 4 arguments, got %zd",
                     nargs);
        return NULL;
    }
    int overflow = 0;
    long size = PyBool_Check(args[2]) ? 0 : PyLong_AsLongAndOverflow(args[2], &overflow);
    if (size == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_TypeError))
            return NULL;
        PyErr_Clear();
    }
    if (size != 8 && size != 9) {
        PyErr_Format(PyExc_ValueError, "twirl_mask: size must be 8 or 9, got %R", args[2]);
        return NULL;
    }
    int n = (int)size, cells = n * n;
    uint64_t mine[2], theirs[2];
    if (read_bitboard(args[0], "mine", n, &mine[0], &mine[1]) < 0 ||
        read_bitboard(args[1], "theirs", n, &theirs[0], &theirs[1]) < 0)
        return NULL;
    if ((mine[0] & theirs[0]) | (mine[1] & theirs[1])) {
        PyErr_SetString(PyExc_ValueError, "twirl_mask: mine and theirs share a cell");
        return NULL;
    }

    Py_buffer view;
    if (!PyObject_CheckBuffer(args[3])) {
        PyErr_Format(PyExc_TypeError, "twirl_mask: out must be a writable contiguous bool array, not %.100s",
                     Py_TYPE(args[3])->tp_name);
        return NULL;
    }
    if (PyObject_GetBuffer(args[3], &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND) < 0) {
        /* the exporter's own words (read-only, not contiguous), prefixed with ours */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        PyErr_NormalizeException(&type, &value, &traceback);
        PyErr_Format(PyExc_ValueError, "twirl_mask: out must be a writable contiguous bool array (%S)",
                     value ? value : Py_None);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(traceback);
        return NULL;
    }
    const char *fmt = view.format ? view.format : "B";
    if (view.itemsize != 1 || fmt[1] != '\0' || strchr("?bB", fmt[0]) == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "twirl_mask: out must hold bytes (a bool, int8 or uint8 array), got format %.10s",
                     fmt);
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_ssize_t twirls = (Py_ssize_t)cells * 32;
    if (view.len != twirls && view.len != twirls + 1) {
        PyErr_Format(PyExc_ValueError,
                     "twirl_mask: out must have %zd entries (or %zd with the swap) on %dx%d, got %zd",
                     twirls, twirls + 1, n, n, view.len);
        PyBuffer_Release(&view);
        return NULL;
    }

    /* 0 empty, 1 mine, 2 theirs */
    unsigned char board[MAX_CELLS];
    for (int c = 0; c < cells; c++) {
        int half = c >> 6, bit = c & 63;
        board[c] = (unsigned char)(((mine[half] >> bit) & 1) | (((theirs[half] >> bit) & 1) << 1));
    }
    unsigned char *out = (unsigned char *)view.buf;
    memset(out, 0, (size_t)twirls);
    long count = 0;
    for (int o = 0; o < cells; o++) {
        if (board[o] != 1)
            continue;
        int of = o % n, orank = o / n;
        for (int d = 0; d < 8; d++) {
            /* the first stone towards d, at distance j */
            int f = of, r = orank, j = 0;
            for (;;) {
                f += VF[d];
                r += VR[d];
                j++;
                if (f < 0 || f >= n || r < 0 || r >= n || board[r * n + f])
                    break;
            }
            if (f < 0 || f >= n || r < 0 || r >= n || board[r * n + f] != 2)
                continue;
            for (int k = 0; k < 4; k++) {
                int t = d * 4 + k, steps = j * dest_len[t];
                int sf = dest_f[t], sr = dest_r[t];
                int tf = of + steps * sf, tr = orank + steps * sr;
                if (tf < 0 || tf >= n || tr < 0 || tr >= n)
                    continue;
                int step = sf + sr * n, c = o, s = 0;
                while (s < steps && !board[c + step]) {  /* the line is on the board: both ends are */
                    c += step;
                    s++;
                }
                if (s == steps) {
                    out[o * 32 + t] = 1;
                    count++;
                }
            }
        }
    }
    PyBuffer_Release(&view);
    return PyLong_FromLong(count);
}

static PyMethodDef methods[] = {
    {"twirl_mask", (PyCFunction)(void (*)(void))twirl_mask, METH_FASTCALL,
     "twirl_mask(mine, theirs, size, out) -> int\n\n"
     "Write the legal twirls of the side owning the bitboard ``mine`` (``theirs``: the\n"
     "other side's) on the size x size board (8 or 9) into the first size*size*32 bytes\n"
     "of ``out`` (a writable contiguous bool/int8/uint8 buffer of size*size*32 entries,\n"
     "or one more for the swap, left untouched); return the number of legal twirls."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_movegen",
    "Twirls of Action's legal-twirl generator in C (the fallback and reference is\n"
    "envs.twirls.rules.Tables.twirl_sets).",
    -1,
    methods,
};

PyMODINIT_FUNC
PyInit__movegen(void)
{
    init_turns();
    if (sixty_four == NULL && (sixty_four = PyLong_FromLong(64)) == NULL)
        return NULL;
    return PyModule_Create(&module);
}
