#!/bin/bash
# A title scored in 8 pieces by a Slurm job array (SLURM_ARRAY_TASK_ID selects
# the piece), then merged by a job that depends on the whole array:
#   jid=$(sbatch --parsable scripts/slurm-array.sh)
#   sbatch --dependency=afterok:$jid --wrap "scripts/vqcuda-pieces merge -k 8 $DIST $REF $OUT"
#SBATCH --job-name=vqcuda-pieces
#SBATCH --array=0-7
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=2
#SBATCH --output=vqcuda-piece-%a.log
set -euo pipefail
VQ=${VQ:-$HOME/vqcuda}
DIST=${DIST:-/data/title.dist.mkv}
REF=${REF:-/data/title.ref.mkv}
OUT=${OUT:-/data/title.vmaf.json}
exec "$VQ/scripts/vqcuda-pieces" piece -k 8 --cuda --ffmpeg "$VQ/build/ffmpeg/ffmpeg" "$DIST" "$REF" "$OUT"
